//! The vendor's HR service API (docs/hr-sandbox.md), as data: its endpoints, who may call them and
//! what they answer, the query filters of each, the `include` names, the create bodies, the rate
//! limits and the filter combinations that always answer an empty list.
//!
//! The facts are written here once: the rules about templates that reach the service quote
//! them, and `iparams-sandbox`, which serves the same document, reads its lists from here.

use crate::products::HR_PRODUCT;

/// The product whose `domain` iparams hold the service's sub-domain.
pub const PRODUCT: &str = HR_PRODUCT.name;

/// What follows the sub-domain in the service's host name.
pub const HOST_SUFFIX: &str = HR_PRODUCT.hosts[0].suffix;

/// Every documented path starts with it.
pub const PATH_PREFIX: &str = "/api";

/// The segment of a path pattern that stands for a resource id.
pub const ID_SEGMENT: &str = "{id}";

/// What the installation page asks to check a `domain` and `api_key` pair of the service: a
/// `GET` here with `Authorization: Bearer <key>`, which answers 200 for a key that may read
/// branches.
pub const CREDENTIAL_CHECK_PATH: &str = "/api/branches";

/// The address of the credential check for the sub-domain `sub_domain`: on `base` when one is
/// given (a stand-in for the service, such as the sandbox), else on the service's own host,
/// `https://<sub_domain>.freshteam.com`.
pub fn credential_check_url(base: Option<&str>, sub_domain: &str) -> String {
    match base {
        Some(base) => format!("{}{CREDENTIAL_CHECK_PATH}", base.trim_end_matches('/')),
        None => format!("https://{sub_domain}{HOST_SUFFIX}{CREDENTIAL_CHECK_PATH}"),
    }
}

/// Objects per page of a list; the document shows no page-size parameter.
pub const PAGE_SIZE: u32 = 50;

/// Roles that may list, create, read and update employees, employee fields and time-offs.
pub const HR_ROLES: &str = "HR Partner, Admin or Account Admin";

/// Roles that may approve a time-off.
pub const APPROVER_ROLES: &str = "HR Partner, Admin, Reporting Manager or Account Admin";

/// What a list operation answers besides its objects.
pub const PAGINATION: &str = "50 objects a page (`page`, from 1); the `total-objects`, \
     `total-pages` and `link` headers say how many there are and where the next page is";

/// The media ranges of `Accept` that let the service answer (JSON); anything else is 406.
pub const ACCEPTABLE: [&str; 3] = ["application/json", "application/*", "*/*"];

/// The only media type of a request body; anything else is 415.
pub const BODY_TYPE: &str = "application/json";

/// A rate-limit plan and its calls per minute, per account, whatever the client's address.
#[derive(Clone, Copy, Debug)]
pub struct Plan {
    pub name: &'static str,
    pub calls_per_minute: &'static str,
}

/// The plans, as the document gives them (429 beyond the limit).
pub const PLANS: [Plan; 4] = [
    Plan {
        name: "Free",
        calls_per_minute: "none",
    },
    Plan {
        name: "Trial",
        calls_per_minute: "10",
    },
    Plan {
        name: "Growth and Pro",
        calls_per_minute: "MAX(50, subscribed employees)",
    },
    Plan {
        name: "Enterprise",
        calls_per_minute: "MAX(100, 2 × subscribed employees)",
    },
];

/// The rate limits, for messages: "Free none, Trial 10, … calls a minute per account (429
/// beyond)".
pub fn rate_limits() -> String {
    let plans: Vec<String> = PLANS
        .iter()
        .map(|plan| format!("{} {}", plan.name, plan.calls_per_minute))
        .collect();
    format!(
        "{} calls a minute per account (429 beyond)",
        plans.join(", ")
    )
}

/// What a query parameter's value must be.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// Any text, matched exactly.
    Text,
    /// One of these values.
    OneOf(&'static [&'static str]),
    /// `YYYY-MM-DD`.
    Date,
    /// A date-time in UTC: `YYYY-MM-DDTHH:MM:SS(.sss)Z`.
    DateTimeUtc,
    /// An integer id.
    Id,
    /// Integer ids separated by commas.
    Ids,
    /// Names of [`EMBEDDED`] separated by commas.
    Include,
    /// A page number, from 1.
    Page,
}

impl Format {
    /// How a message describes it.
    pub fn described(self) -> String {
        match self {
            Format::Text => "text".to_owned(),
            Format::OneOf(values) => format!(
                "one of {}",
                crate::suggest::quoted_list(values.iter().copied())
            ),
            Format::Date => "a date `YYYY-MM-DD`, such as \"2026-01-31\"".to_owned(),
            Format::DateTimeUtc => {
                "a date-time in UTC, such as \"2026-01-31T09:30:00Z\"".to_owned()
            }
            Format::Id => "an integer id, such as \"42\"".to_owned(),
            Format::Ids => "integer ids separated by commas, such as \"3,7\"".to_owned(),
            Format::Include => "names of embedded attributes separated by commas".to_owned(),
            Format::Page => "a page number from 1".to_owned(),
        }
    }

    /// Whether a literal `value` has this format.
    pub fn accepts(self, value: &str) -> bool {
        match self {
            Format::Text | Format::Include => true,
            Format::OneOf(values) => values.contains(&value),
            Format::Date => is_date(value),
            Format::DateTimeUtc => is_utc_date_time(value),
            Format::Id => is_id(value),
            Format::Ids => value.split(',').all(|id| is_id(id.trim())),
            Format::Page => is_id(value),
        }
    }
}

/// A query parameter an operation takes.
#[derive(Clone, Copy, Debug)]
pub struct Filter {
    pub name: &'static str,
    pub format: Format,
    /// What it matches, from the document.
    pub meaning: &'static str,
}

const fn filter(name: &'static str, format: Format, meaning: &'static str) -> Filter {
    Filter {
        name,
        format,
        meaning,
    }
}

pub const EMPLOYEE_STATUSES: [&str; 2] = ["active", "inactive"];
pub const EMPLOYEE_SORTS: [&str; 3] = ["first_name", "last_name", "employee_id"];
pub const SORT_TYPES: [&str; 2] = ["asc", "desc"];
pub const BOOLEANS: [&str; 2] = ["true", "false"];
pub const TIME_OFF_STATUSES: [&str; 4] = ["pending", "approved", "declined", "cancelled"];

/// The pagination parameters every list takes (the employee list narrows `sort`).
const PAGING: [Filter; 3] = [
    filter("page", Format::Page, "the page, from 1 (50 objects a page)"),
    filter(
        "sort_type",
        Format::OneOf(&SORT_TYPES),
        "the order, `asc` (default) or `desc`",
    ),
    filter("sort", Format::Text, "the attribute to sort by"),
];

/// The filters of `GET /api/employees`.
pub const EMPLOYEE_FILTERS: [Filter; 17] = [
    filter(
        "status",
        Format::OneOf(&EMPLOYEE_STATUSES),
        "matches `status`",
    ),
    filter("first_name", Format::Text, "matches `first_name`"),
    filter("last_name", Format::Text, "matches `last_name`"),
    filter("personal_email", Format::Text, "matches `personal_email`"),
    filter("official_email", Format::Text, "matches `official_email`"),
    filter("employee_type", Format::Text, "matches `employee_type`"),
    filter("department", Format::Id, "matches `department_id`"),
    filter("business_unit", Format::Id, "matches `business_unit_id`"),
    filter(
        "location",
        Format::Ids,
        "matches `branch_id`; several ids may be given comma-separated",
    ),
    filter("reporting_manager", Format::Id, "matches `reporting_to_id`"),
    filter(
        "updated_since",
        Format::DateTimeUtc,
        "employees whose `updated_at` is after it",
    ),
    filter(
        "sort",
        Format::OneOf(&EMPLOYEE_SORTS),
        "the attribute to sort by (`first_name` when not given)",
    ),
    filter(
        "sort_type",
        Format::OneOf(&SORT_TYPES),
        "the order, `asc` (default) or `desc`",
    ),
    filter("draft", Format::OneOf(&BOOLEANS), "matches `draft`"),
    filter(
        "terminated",
        Format::OneOf(&BOOLEANS),
        "matches `terminated`",
    ),
    filter("deleted", Format::OneOf(&BOOLEANS), "matches `deleted`"),
    filter("page", Format::Page, "the page, from 1 (50 objects a page)"),
];

/// The filters of `GET /api/time_offs`.
pub const TIME_OFF_FILTERS: [Filter; 9] = [
    filter(
        "status",
        Format::OneOf(&TIME_OFF_STATUSES),
        "matches `status`",
    ),
    filter("user", Format::Id, "matches `user_id`"),
    filter("leave_type", Format::Id, "matches `leave_type_id`"),
    filter(
        "location",
        Format::Id,
        "a branch id: requests of that branch's employees",
    ),
    filter(
        "start_date",
        Format::Date,
        "matches `start_date`; required when `end_date` is used",
    ),
    filter(
        "end_date",
        Format::Date,
        "matches `end_date`; required when `start_date` is used, and later than it",
    ),
    PAGING[0],
    PAGING[1],
    PAGING[2],
];

const INCLUDE: [Filter; 1] = [filter(
    "include",
    Format::Include,
    "embedded attributes to add to the answer, comma-separated",
)];

/// The embedded attributes of an employee: returned only when named in `include`.
pub const EMBEDDED: [&str; 40] = [
    "awards",
    "honors",
    "certificates",
    "licenses",
    "background_verification_details",
    "visas",
    "government_documents",
    "dependents",
    "bank_accounts",
    "prev_employments",
    "qualifications",
    "compensation_details",
    "bonuses",
    "stocks",
    "additional_teams",
    "additional_managers",
    "additional_hr_managers",
    "languages",
    "roles",
    "branch",
    "team",
    "business_unit",
    "sub_department",
    "department",
    "level",
    "reporting_to",
    "hr_incharge",
    "shift",
    "user_function",
    "cost_center",
    "user_title",
    "user_suffix_name",
    "user_honorary_suffix",
    "user_professional_suffix",
    "user_academic_suffix",
    "retirement_status",
    "citizenship_status",
    "termination_category",
    "time_off",
    "user_documents",
];

/// The employee-list filter values that together always answer an empty list (200 `[]`).
pub const ALWAYS_EMPTY: [&[(&str, &str)]; 4] = [
    &[("status", "inactive"), ("draft", "true")],
    &[("status", "active"), ("terminated", "true")],
    &[("status", "inactive"), ("deleted", "false")],
    &[
        ("draft", "true"),
        ("terminated", "true"),
        ("deleted", "true"),
    ],
];

/// The type of a body attribute.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BodyType {
    String,
    Integer,
    Boolean,
    /// A string `YYYY-MM-DD`.
    Date,
    Object,
    Array,
}

/// An attribute of a request body.
#[derive(Clone, Copy, Debug)]
pub struct BodyField {
    pub name: &'static str,
    pub ty: BodyType,
    pub required: bool,
    /// The only values allowed, when the document lists them.
    pub values: &'static [&'static str],
    /// Length bounds of a string, in characters.
    pub length: Option<(usize, usize)>,
}

const fn field(name: &'static str, ty: BodyType) -> BodyField {
    BodyField {
        name,
        ty,
        required: false,
        values: &[],
        length: None,
    }
}

const fn required(name: &'static str, ty: BodyType) -> BodyField {
    BodyField {
        required: true,
        ..field(name, ty)
    }
}

const fn one_of(name: &'static str, values: &'static [&'static str]) -> BodyField {
    BodyField {
        values,
        ..field(name, BodyType::String)
    }
}

pub const GENDERS: [&str; 2] = ["male", "female"];
pub const BLOOD_GROUPS: [&str; 15] = [
    "A-", "B-", "O-", "B+", "O+", "A+", "A1+", "A1B-", "AB+", "AB-", "A1B+", "A2+", "A2B-", "A2B+",
    "A1-",
];
pub const WORK_NUMBER_NAMES: [&str; 4] = ["Work", "Office Ext.", "Mobile", "Others"];
pub const PHONE_NUMBER_NAMES: [&str; 4] = ["Home", "Main", "Mobile", "Others"];
pub const RELATIONSHIPS: [&str; 12] = [
    "Parent", "Father", "Mother", "Spouse", "Husband", "Wife", "Child", "Son", "Daughter",
    "Sibling", "Brother", "Sister",
];
/// The parts of an address, each a string of 2 to 128 characters.
pub const ADDRESS_PARTS: [&str; 5] = ["street", "city", "state", "country", "zip_code"];
pub const ADDRESS_PART_LENGTH: (usize, usize) = (2, 128);
pub const CUSTOM_FIELD_TYPES: [&str; 2] = ["text", "number"];

/// The body of `POST /api/employees` (and of `PUT /api/employees/{id}`, where nothing is
/// required).
pub const EMPLOYEE_BODY: [BodyField; 33] = [
    required("first_name", BodyType::String),
    required("last_name", BodyType::String),
    required("official_email", BodyType::String),
    required("role_ids", BodyType::Array),
    field("middle_name", BodyType::String),
    field("employee_id", BodyType::Integer),
    field("personal_email", BodyType::String),
    field("employee_type", BodyType::String),
    field("work_numbers", BodyType::Array),
    field("phone_numbers", BodyType::Array),
    field("date_of_birth", BodyType::Date),
    BodyField {
        length: Some((0, 128)),
        ..field("designation", BodyType::String)
    },
    field("joining_date", BodyType::Date),
    field("branch_id", BodyType::Integer),
    field("hr_incharge_id", BodyType::Integer),
    field("reporting_to_id", BodyType::Integer),
    field("business_unit_id", BodyType::Integer),
    field("sub_department_id", BodyType::Integer),
    field("shift_id", BodyType::Integer),
    field("department_id", BodyType::Integer),
    field("team_id", BodyType::Integer),
    field("level_id", BodyType::Integer),
    one_of("blood_group", &BLOOD_GROUPS),
    one_of("gender", &GENDERS),
    field("address", BodyType::Object),
    field("communication_address", BodyType::Object),
    field("custom_fields", BodyType::Object),
    field("draft", BodyType::Boolean),
    field("cost_center_id", BodyType::String),
    field("id_card_details", BodyType::String),
    field("send_invite_email", BodyType::Boolean),
    // Accepted on create by the document's samples; not in the create table.
    field("status", BodyType::String),
    field("terminated", BodyType::Boolean),
];

/// The body of `POST /api/time_offs`.
pub const TIME_OFF_BODY: [BodyField; 8] = [
    required("start_date", BodyType::Date),
    required("end_date", BodyType::Date),
    field("optional_leave_days", BodyType::Array),
    field("notify_to", BodyType::Array),
    field("add_to_calendar", BodyType::Boolean),
    field("auto_decline_events", BodyType::Boolean),
    required("leave_type_id", BodyType::Integer),
    required("comments", BodyType::String),
];

/// The body of `POST /api/employee_fields`.
pub const EMPLOYEE_FIELD_BODY: [BodyField; 4] = [
    required("label", BodyType::String),
    required("section_name", BodyType::String),
    field("required", BodyType::Boolean),
    one_of("field_type", &CUSTOM_FIELD_TYPES),
];

/// The body of `PUT /api/employees/{id}/send_invite`.
pub const SEND_INVITE_BODY: [BodyField; 1] = [field("send_invite_email", BodyType::Boolean)];

/// What a body is, and whether its `required` attributes are required (not on update).
#[derive(Clone, Copy, Debug)]
pub struct Body {
    pub fields: &'static [BodyField],
    pub enforce_required: bool,
}

/// One method of one path of the endpoint table.
#[derive(Clone, Copy, Debug)]
pub struct Operation {
    pub method: &'static str,
    /// The path pattern, `{id}` standing for an id: `/api/employees/{id}`.
    pub path: &'static str,
    /// What it does: "list employees".
    pub does: &'static str,
    /// Who may call it; `None` where the document does not say.
    pub roles: Option<&'static str>,
    /// The success answer: "200, an array of employee objects".
    pub answer: &'static str,
    /// A body comes back (so `Accept` matters).
    pub returns_body: bool,
    /// It takes a body (so `Content-Type: application/json` is needed).
    pub takes_body: bool,
    /// The query parameters it takes.
    pub query: &'static [Filter],
    /// Its body, for the checks of bodies given at invocation.
    pub body: Option<Body>,
    /// It pages (a list).
    pub list: bool,
}

const fn list(path: &'static str, does: &'static str, what: &'static str) -> Operation {
    Operation {
        method: "GET",
        path,
        does,
        roles: None,
        answer: what,
        returns_body: true,
        takes_body: false,
        query: &PAGING,
        body: None,
        list: true,
    }
}

/// The endpoint table, in the document's order: the operations of one path are next to each
/// other.
pub static OPERATIONS: [Operation; 20] = [
    Operation {
        roles: Some(HR_ROLES),
        query: &EMPLOYEE_FILTERS,
        ..list(
            "/api/employees",
            "list employees",
            "200, an array of employee objects",
        )
    },
    Operation {
        method: "POST",
        roles: Some(HR_ROLES),
        takes_body: true,
        query: &[],
        body: Some(Body {
            fields: &EMPLOYEE_BODY,
            enforce_required: true,
        }),
        list: false,
        ..list(
            "/api/employees",
            "create an employee",
            "201, the created employee (with `id`, `created_at`, `updated_at`)",
        )
    },
    Operation {
        roles: Some(HR_ROLES),
        query: &INCLUDE,
        list: false,
        ..list(
            "/api/employees/{id}",
            "read an employee",
            "200, the employee, with the embedded attributes named in `include`",
        )
    },
    Operation {
        method: "PUT",
        roles: Some(HR_ROLES),
        takes_body: true,
        query: &[],
        body: Some(Body {
            fields: &EMPLOYEE_BODY,
            enforce_required: false,
        }),
        list: false,
        ..list(
            "/api/employees/{id}",
            "update an employee",
            "200, the updated employee; attributes null or left out keep their value",
        )
    },
    Operation {
        method: "PUT",
        takes_body: true,
        query: &[],
        body: Some(Body {
            fields: &SEND_INVITE_BODY,
            enforce_required: false,
        }),
        list: false,
        ..list(
            "/api/employees/{id}/send_invite",
            "send the portal invitation",
            "200, the updated employee; `send_invite_email: true` mails the invitation to `official_email`",
        )
    },
    Operation {
        roles: Some(HR_ROLES),
        ..list(
            "/api/employee_fields",
            "list employee fields",
            "200, an array of employee field objects",
        )
    },
    Operation {
        method: "POST",
        roles: Some(HR_ROLES),
        takes_body: true,
        query: &[],
        body: Some(Body {
            fields: &EMPLOYEE_FIELD_BODY,
            enforce_required: true,
        }),
        list: false,
        ..list(
            "/api/employee_fields",
            "create a custom employee field",
            "201, the created employee field (with `section_label`)",
        )
    },
    list(
        "/api/branches",
        "list branches",
        "200, an array of branch objects",
    ),
    list(
        "/api/departments",
        "list departments",
        "200, an array of department objects",
    ),
    list(
        "/api/sub_departments",
        "list sub-departments",
        "200, an array of sub-department objects",
    ),
    list(
        "/api/business_units",
        "list business units",
        "200, an array of business unit objects",
    ),
    list("/api/teams", "list teams", "200, an array of team objects"),
    list(
        "/api/levels",
        "list levels",
        "200, an array of level objects",
    ),
    Operation {
        roles: Some(HR_ROLES),
        query: &TIME_OFF_FILTERS,
        ..list(
            "/api/time_offs",
            "list time-offs",
            "200, an array of time-off objects",
        )
    },
    Operation {
        method: "POST",
        takes_body: true,
        query: &[],
        body: Some(Body {
            fields: &TIME_OFF_BODY,
            enforce_required: true,
        }),
        list: false,
        ..list(
            "/api/time_offs",
            "create a time-off",
            "201, the created time-off (with `id`, `created_at`, `updated_at`)",
        )
    },
    Operation {
        roles: Some(HR_ROLES),
        query: &[],
        list: false,
        ..list(
            "/api/time_offs/{id}",
            "read a time-off",
            "200, the time-off",
        )
    },
    Operation {
        method: "PUT",
        roles: Some("the person who raised the request"),
        takes_body: true,
        query: &[],
        list: false,
        ..list(
            "/api/time_offs/{id}/cancel",
            "cancel a time-off",
            "200, the time-off with status `cancelled` (the sample sends `{}`)",
        )
    },
    Operation {
        method: "PUT",
        roles: Some(APPROVER_ROLES),
        takes_body: true,
        query: &[],
        list: false,
        ..list(
            "/api/time_offs/{id}/approve",
            "approve a time-off",
            "200, the time-off with status `approved` and `approved_by` (the sample sends `{}`)",
        )
    },
    Operation {
        roles: Some(HR_ROLES),
        ..list(
            "/api/time_off_types",
            "list time-off types",
            "200, an array of time-off type objects",
        )
    },
    Operation {
        query: &[],
        list: false,
        ..list(
            "/api/time_off_types/{id}",
            "read a time-off type",
            "not shown by the document",
        )
    },
];

/// A segment of a template's path, as far as the table is concerned.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Segment<'t> {
    /// Written out.
    Literal(&'t str),
    /// A placeholder and nothing else: its value is known at run time only.
    Placeholder,
}

/// Whether pattern segment `pattern` (`employees`, `{id}`) can be `segment`: an id is a number
/// or a placeholder; any other segment is written out.
fn segment_matches(pattern: &str, segment: Segment<'_>) -> bool {
    match segment {
        Segment::Placeholder => pattern == ID_SEGMENT,
        Segment::Literal(text) if pattern == ID_SEGMENT => is_id(text),
        Segment::Literal(text) => pattern == text,
    }
}

/// The operations of the documented path that `segments` (after the leading `/`) is, by
/// method; empty when it is none.
pub fn operations_at(segments: &[Segment<'_>]) -> &'static [Operation] {
    let Some(first) = PATTERNS.iter().position(|pattern| {
        pattern.len() == segments.len()
            && pattern
                .iter()
                .zip(segments)
                .all(|(pattern, segment)| segment_matches(pattern, *segment))
    }) else {
        return &[];
    };
    let path = OPERATIONS[first].path;
    let count = OPERATIONS[first..]
        .iter()
        .take_while(|operation| operation.path == path)
        .count();
    &OPERATIONS[first..first + count]
}

/// The segments of each operation's path pattern after its leading `/`, split once: every
/// rule about a template looks its path up.
static PATTERNS: std::sync::LazyLock<Vec<Vec<&'static str>>> = std::sync::LazyLock::new(|| {
    OPERATIONS
        .iter()
        .map(|operation| operation.path[1..].split('/').collect())
        .collect()
});

fn pattern_of(operation: &Operation) -> std::iter::Copied<std::slice::Iter<'static, &'static str>> {
    let index = OPERATIONS
        .iter()
        .position(|other| std::ptr::eq(other, operation))
        .unwrap_or_default();
    PATTERNS[index].iter().copied()
}

/// The documented path patterns that `segments` would be if each segment at an id's place
/// were an id: for saying that a segment should be a number.
pub fn paths_but_ids(segments: &[Segment<'_>]) -> Vec<(&'static str, Vec<usize>)> {
    let mut found: Vec<(&'static str, Vec<usize>)> = Vec::new();
    for operation in &OPERATIONS {
        if found.iter().any(|(path, _)| *path == operation.path) {
            continue;
        }
        let pattern: Vec<&str> = operation.path[1..].split('/').collect();
        if pattern.len() != segments.len() {
            continue;
        }
        let mut wrong = Vec::new();
        let fits = pattern
            .iter()
            .zip(segments)
            .enumerate()
            .all(|(index, (p, s))| {
                if segment_matches(p, *s) {
                    true
                } else if *p == ID_SEGMENT && *s != Segment::Literal("") {
                    // An empty segment is a doubled or trailing `/`, not a word for an id.
                    wrong.push(index);
                    true
                } else {
                    false
                }
            });
        if fits && !wrong.is_empty() {
            found.push((operation.path, wrong));
        }
    }
    found
}

/// Whether some documented path could be `segments` once its placeholders are known: a
/// placeholder standing where the table writes a name makes the path unknowable.
pub fn may_be_documented(segments: &[Segment<'_>]) -> bool {
    OPERATIONS.iter().any(|operation| {
        let pattern = pattern_of(operation);
        pattern.clone().count() == segments.len()
            && pattern.zip(segments).all(|(pattern, segment)| {
                *segment == Segment::Placeholder || segment_matches(pattern, *segment)
            })
    })
}

/// The documented paths, each once, in the document's order.
pub fn paths() -> Vec<&'static str> {
    let mut paths: Vec<&'static str> = Vec::new();
    for operation in &OPERATIONS {
        if !paths.contains(&operation.path) {
            paths.push(operation.path);
        }
    }
    paths
}

/// An id as a path or a filter takes it: a positive integer.
pub fn is_id(text: &str) -> bool {
    !text.is_empty()
        && text.len() <= 18
        && text.bytes().all(|b| b.is_ascii_digit())
        && text.bytes().any(|b| b != b'0')
}

/// `YYYY-MM-DD`, a real calendar date.
pub fn is_date(text: &str) -> bool {
    date_parts(text).is_some()
}

fn date_parts(text: &str) -> Option<(u32, u32, u32)> {
    let bytes = text.as_bytes();
    if bytes.len() != 10 || bytes[4] != b'-' || bytes[7] != b'-' {
        return None;
    }
    let number = |range: std::ops::Range<usize>| -> Option<u32> {
        let part = &text[range];
        part.bytes()
            .all(|b| b.is_ascii_digit())
            .then(|| part.parse().ok())
            .flatten()
    };
    let (year, month, day) = (number(0..4)?, number(5..7)?, number(8..10)?);
    let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0);
    let days = match month {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if leap => 29,
        2 => 28,
        _ => return None,
    };
    (1..=days).contains(&day).then_some((year, month, day))
}

/// A date-time in UTC: `YYYY-MM-DDTHH:MM:SS`, optional fraction, then `Z` (or `+00:00`).
pub fn is_utc_date_time(text: &str) -> bool {
    let Some((date, time)) = text.split_once('T') else {
        return false;
    };
    let Some(time) = time
        .strip_suffix('Z')
        .or_else(|| time.strip_suffix("+00:00"))
    else {
        return false;
    };
    let (clock, fraction) = time.split_once('.').unwrap_or((time, "0"));
    let parts: Vec<&str> = clock.split(':').collect();
    let in_range = |part: &str, max: u32| {
        part.len() == 2
            && part.bytes().all(|b| b.is_ascii_digit())
            && part.parse::<u32>().is_ok_and(|n| n <= max)
    };
    is_date(date)
        && parts.len() == 3
        && in_range(parts[0], 23)
        && in_range(parts[1], 59)
        && in_range(parts[2], 59)
        && !fraction.is_empty()
        && fraction.bytes().all(|b| b.is_ascii_digit())
}

/// Whether a date-time names a zone other than UTC, or none: what to say of it.
pub fn date_time_zone_problem(text: &str) -> Option<&'static str> {
    let (date, time) = text.split_once('T')?;
    if !is_date(date) || is_utc_date_time(text) {
        return None;
    }
    let zoned = time.contains('+') || time.contains('-') || time.ends_with('z');
    Some(if zoned {
        "is not in UTC"
    } else {
        "has no time zone"
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn segments(path: &str) -> Vec<Segment<'_>> {
        path[1..]
            .split('/')
            .map(|s| {
                if s == "*" {
                    Segment::Placeholder
                } else {
                    Segment::Literal(s)
                }
            })
            .collect()
    }

    #[test]
    fn the_credential_check_goes_to_the_service_or_its_stand_in() {
        assert_eq!(
            credential_check_url(None, "acme"),
            "https://acme.freshteam.com/api/branches"
        );
        assert_eq!(
            credential_check_url(Some("http://127.0.0.1:9/"), "acme"),
            "http://127.0.0.1:9/api/branches"
        );
    }

    #[test]
    fn the_table_has_the_documents_pairs() {
        assert_eq!(OPERATIONS.len(), 20);
        assert_eq!(paths().len(), 16);
        // `operations_at` answers with a run of the table: a path's operations are adjacent.
        for path in paths() {
            let at: Vec<usize> = (0..OPERATIONS.len())
                .filter(|&index| OPERATIONS[index].path == path)
                .collect();
            assert_eq!(at.last().unwrap() - at[0] + 1, at.len(), "{path}");
        }
        let methods = |path: &str| -> Vec<&str> {
            operations_at(&segments(path))
                .iter()
                .map(|o| o.method)
                .collect()
        };
        assert_eq!(methods("/api/employees"), ["GET", "POST"]);
        assert_eq!(methods("/api/employees/42"), ["GET", "PUT"]);
        assert_eq!(methods("/api/employees/*"), ["GET", "PUT"]);
        assert_eq!(methods("/api/time_offs/*/approve"), ["PUT"]);
        assert!(methods("/api/employees/abc").is_empty());
        assert!(methods("/api/employees/0").is_empty());
        assert!(methods("/api/roles").is_empty());
        assert_eq!(
            paths_but_ids(&segments("/api/employees/{id}")),
            [("/api/employees/{id}", vec![2])]
        );
        assert!(may_be_documented(&segments("/api/*")));
        assert!(!may_be_documented(&segments("/api/people")));
        assert!(!may_be_documented(&segments("/api/employees/*/x")));
    }

    #[test]
    fn every_list_pages_and_the_employee_list_filters() {
        for operation in OPERATIONS.iter().filter(|o| o.list) {
            assert!(
                operation.query.iter().any(|f| f.name == "page"),
                "{}",
                operation.path
            );
        }
        let employees = &OPERATIONS[0];
        assert!(employees.query.iter().all(|f| f.name != "include"));
        assert_eq!(employees.query.len(), 17);
        assert!(OPERATIONS[2].query.iter().any(|f| f.name == "include"));
    }

    #[test]
    fn formats() {
        assert!(is_date("2024-02-29"));
        assert!(!is_date("2023-02-29"));
        assert!(!is_date("2024-2-9"));
        assert!(is_utc_date_time("2026-01-31T09:30:00Z"));
        assert!(is_utc_date_time("2026-01-31T09:30:00.123Z"));
        assert!(is_utc_date_time("2026-01-31T09:30:00+00:00"));
        assert!(!is_utc_date_time("2026-01-31T09:30:00"));
        assert!(!is_utc_date_time("2026-01-31"));
        assert_eq!(
            date_time_zone_problem("2026-01-31T09:30:00+05:30"),
            Some("is not in UTC")
        );
        assert_eq!(
            date_time_zone_problem("2026-01-31T09:30:00"),
            Some("has no time zone")
        );
        assert!(Format::Ids.accepts("3, 7,12"));
        assert!(!Format::Ids.accepts("3;7"));
        assert!(!Format::Id.accepts("-1"));
        assert!(Format::OneOf(&BOOLEANS).accepts("true"));
        assert!(!Format::OneOf(&BOOLEANS).accepts("True"));
    }
}
