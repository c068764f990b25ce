//! The seeded organisation: the same for the same number of employees, every time.

use serde_json::{Value, json};

use crate::error::ApiError;
use crate::store::{EMPLOYEE_FIELDS, EMPLOYEES, ROLES, SHIFTS, Store, TIME_OFF_TYPES, TIME_OFFS};
use crate::time::{format_date, format_timestamp, parse_date};

/// When the seeded records were created: 2026-01-05T09:00:00Z.
const SEEDED_AT_MS: u64 = 1_767_603_600_000;

/// The fixed roles (`role_ids` must name them).
pub const ROLE_NAMES: [(i64, &str); 5] = [
    (1, "Account Admin"),
    (2, "Admin"),
    (3, "HR Partner"),
    (4, "Reporting Manager"),
    (5, "Employee"),
];

/// The seeded users whose API keys are handed out, with their roles. Employees 1 to 5.
pub const KEYED_USERS: [(&str, &[i64]); 5] = [
    ("account_admin", &[1, 5]),
    ("admin", &[2, 5]),
    ("hr_partner", &[3, 5]),
    ("reporting_manager", &[4, 5]),
    ("employee", &[5]),
];

const FIRST_NAMES: [&str; 24] = [
    "Aarav", "Beatriz", "Chen", "Dmitri", "Elena", "Farah", "Gustavo", "Hana", "Ibrahim", "Julia",
    "Kofi", "Laila", "Mateo", "Nadia", "Oliver", "Priya", "Quentin", "Rosa", "Sanjay", "Tomoko",
    "Uma", "Victor", "Wen", "Yusuf",
];
const LAST_NAMES: [&str; 20] = [
    "Anand",
    "Bauer",
    "Castillo",
    "Dubois",
    "Eriksen",
    "Fontaine",
    "Garcia",
    "Haddad",
    "Ito",
    "Jensen",
    "Kowalski",
    "Lindqvist",
    "Moreau",
    "Nakamura",
    "Okafor",
    "Petrov",
    "Rossi",
    "Sato",
    "Tanaka",
    "Varga",
];
const DESIGNATIONS: [&str; 6] = [
    "Software Engineer",
    "HR Generalist",
    "Account Executive",
    "Support Specialist",
    "Accountant",
    "Engineering Manager",
];

/// A small deterministic generator (a 64-bit LCG).
struct Dice(u64);

impl Dice {
    fn next(&mut self, below: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        let high = usize::try_from(self.0 >> 33).unwrap_or(0);
        high % below.max(1)
    }
}

fn stamp(minutes: u64) -> String {
    format_timestamp(SEEDED_AT_MS + minutes * 60_000)
}

fn date(text: &str) -> i64 {
    parse_date(text).unwrap_or(0)
}

fn base(minutes: u64) -> serde_json::Map<String, Value> {
    let mut object = serde_json::Map::new();
    object.insert("created_at".into(), stamp(minutes).into());
    object.insert("updated_at".into(), stamp(minutes).into());
    object.insert("deleted".into(), false.into());
    object
}

fn with(mut object: serde_json::Map<String, Value>, fields: Value) -> Value {
    if let Value::Object(fields) = fields {
        object.extend(fields);
    }
    Value::Object(object)
}

/// Seeds an empty database with `employees` employees (at least 5: the keyed users).
pub fn seed(
    store: &Store,
    employees: usize,
    tokens: &mut dyn FnMut() -> String,
) -> Result<(), ApiError> {
    let employees = employees.max(KEYED_USERS.len());
    let mut dice = Dice(0x5eed_1e55_0000_0013);
    for (id, name) in ROLE_NAMES {
        let mut doc = json!({"id": id, "name": name, "default": true});
        store.insert(ROLES, &mut doc)?;
    }
    let branches = [
        (
            "Chennai HQ",
            "Tamil Nadu",
            "Chennai",
            "IN",
            "600113",
            "Asia/Kolkata",
            "INR",
            true,
            "DateFirst",
        ),
        (
            "San Mateo",
            "California",
            "San Mateo",
            "US",
            "94403",
            "America/Los_Angeles",
            "USD",
            false,
            "MonthFirst",
        ),
        (
            "London",
            "England",
            "London",
            "GB",
            "EC1A 1BB",
            "Europe/London",
            "GBP",
            false,
            "DateFirst",
        ),
        (
            "Sydney",
            "New South Wales",
            "Sydney",
            "AU",
            "2000",
            "Australia/Sydney",
            "AUD",
            false,
            "DateFirst",
        ),
    ];
    for (i, (name, state, city, country, zip, zone, currency, main, format)) in
        branches.iter().enumerate()
    {
        let mut doc = with(
            base(i as u64),
            json!({"name": name, "street": format!("{} Main Street", 10 + i), "state": state,
                   "city": city, "country_code": country, "zip": zip, "time_zone": zone,
                   "currency": currency, "language": "en", "main_office": main,
                   "date_format": format}),
        );
        store.insert("branches", &mut doc)?;
    }
    let named = [
        (
            "departments",
            &[
                "Engineering",
                "Human Resources",
                "Sales",
                "Support",
                "Finance",
            ][..],
        ),
        (
            "sub_departments",
            &["Platform", "Mobile", "Recruiting", "Inside Sales"][..],
        ),
        (
            "teams",
            &[
                "Core API",
                "Web",
                "Payroll",
                "EMEA Sales",
                "Tier 1",
                "Tier 2",
            ][..],
        ),
        ("levels", &["L1", "L2", "L3", "L4", "L5"][..]),
    ];
    for (kind, names) in named {
        for (i, name) in names.iter().enumerate() {
            let mut doc = with(base(i as u64), json!({"name": name}));
            store.insert(kind, &mut doc)?;
        }
    }
    for (i, (name, description)) in [
        ("Products", "Builds and runs the products"),
        ("Corporate", "Everything that keeps the company going"),
    ]
    .iter()
    .enumerate()
    {
        let mut doc = with(
            base(i as u64),
            json!({"name": name, "description": description}),
        );
        store.insert("business_units", &mut doc)?;
    }
    for (i, name) in ["General (09:00-18:00)", "Night (22:00-07:00)"]
        .iter()
        .enumerate()
    {
        let mut doc = json!({"id": i + 1, "value": name});
        store.insert(SHIFTS, &mut doc)?;
    }
    seed_fields(store)?;
    let types = [
        (
            "Paid time off",
            "Vacation and personal days",
            "all",
            true,
            false,
            20,
        ),
        ("Sick leave", "When you are unwell", "all", true, true, 12),
        (
            "Parental leave",
            "Birth or adoption of a child",
            "all",
            false,
            false,
            90,
        ),
        ("Unpaid leave", "Leave without pay", "all", false, false, 30),
    ];
    for (i, (name, description, applicable, default, auto, _)) in types.iter().enumerate() {
        let mut doc = with(
            base(i as u64),
            json!({"name": name, "description": description, "applicable_for": applicable,
                   "default": default, "auto_approve": auto,
                   "auto_approve_after": if *auto { 2 } else { 0 },
                   "auto_approve_limit": if *auto { 3 } else { 0 }, "marital_status": "all"}),
        );
        store.insert(TIME_OFF_TYPES, &mut doc)?;
    }
    let time_off: Vec<Value> = types
        .iter()
        .enumerate()
        .map(|(i, (name, .., credits))| {
            json!({"leave_type": {"id": i + 1, "value": name}, "leaves_availed": 0,
                   "leave_credits": credits})
        })
        .collect();

    for n in 1..=employees {
        let first = FIRST_NAMES[(n - 1) % FIRST_NAMES.len()];
        let last = LAST_NAMES[(n * 7 + dice.next(LAST_NAMES.len())) % LAST_NAMES.len()];
        let branch = if n <= 5 { 1 } else { 1 + dice.next(4) };
        let department = match n {
            1..=3 => 2,
            4 | 5 => 1,
            _ => 1 + dice.next(5),
        };
        // Employees 6 to 10 manage; everyone else reports to the reporting manager (4) or
        // one of them.
        let reporting_to = match n {
            1 => Value::Null,
            2..=4 => Value::from(1),
            5 => Value::from(4),
            6..=10 => Value::from(4),
            _ => Value::from(4 + dice.next(7).min(6) as i64),
        };
        let roles: Vec<i64> = match KEYED_USERS.get(n - 1) {
            Some((_, roles)) => roles.to_vec(),
            None if (6..=10).contains(&n) => vec![4, 5],
            None => vec![5],
        };
        // A few of each state, away from the keyed users: drafts are active; inactive and
        // terminated records are archived (deleted), as the always-empty filter rules imply.
        let (status, draft, terminated, deleted) = match n % 15 {
            _ if n <= 10 => ("active", false, false, false),
            11 => ("active", true, false, false),
            12 => ("inactive", false, false, true),
            13 => ("inactive", false, true, true),
            _ => ("active", false, false, false),
        };
        let (_, _, city, country, zip, ..) = branches[branch - 1];
        let email = format!(
            "{}.{}{n}@acme-hr.test",
            first.to_lowercase(),
            last.to_lowercase()
        );
        let joined = date("2019-01-07") + (n as i64) * 23;
        let born = date("1975-03-01") + (n as i64) * 211;
        let minutes = 100 + n as u64;
        let mut doc = with(
            base(minutes),
            json!({
                "work_numbers": [{"name": "Work", "number": format!("+1 555 01{n:02}")}],
                "phone_numbers": [{"name": "Mobile", "number": format!("+1 555 02{n:02}")}],
                "workstation_number": format!("D-{n:03}"),
                "nick_name": first,
                "date_of_birth": format_date(born),
                "gender": if n % 2 == 0 { "female" } else { "male" },
                "address": {"street": format!("{n} Elm Street"), "city": city, "state": "State",
                            "country_code": country, "zip_code": zip},
                "communication_address": {"communication_street": format!("{n} Elm Street"),
                    "communication_city": city, "communication_state": "State",
                    "communication_country": country, "communication_country_code": country,
                    "communication_zip_code": zip},
                "designation": DESIGNATIONS[(department + n) % DESIGNATIONS.len()],
                "joining_date": format_date(joined),
                "termination_date": if terminated { Value::from("2025-06-30") } else { Value::Null },
                "first_name": first,
                "last_name": last,
                "middle_name": Value::Null,
                "employee_id": format!("EMP{n:04}"),
                "status": status,
                "official_email": email,
                "personal_email": format!("{}{n}@mail.test", first.to_lowercase()),
                "employee_type": if n % 9 == 0 { "part time" } else if n % 17 == 0 { "contract" } else { "full time" },
                "draft": draft,
                "terminated": terminated,
                "deleted": deleted,
                "branch_id": branch,
                "team_id": 1 + (n % 6),
                "department_id": department,
                "business_unit_id": if department == 1 { 1 } else { 2 },
                "sub_department_id": if department == 1 { Value::from(1 + n % 2) } else { Value::Null },
                "level_id": 1 + n % 5,
                "reporting_to_id": reporting_to,
                "hr_incharge_id": 3,
                "shift_id": 1,
                "time_off": time_off,
                "custom_field_values": {
                    "cf_t_shirt_size": {"id": 1 + n % 4, "value": (["S", "M", "L", "XL"][n % 4])},
                    "cf_github_handle": format!("{}{n}", first.to_lowercase()),
                    "cf_works_remotely": i64::from(n % 3 == 0),
                },
                "_role_ids": roles,
            }),
        );
        store.insert(EMPLOYEES, &mut doc)?;
    }

    // Time-offs in every state; the employee (5) has one pending and one approved request.
    let states = ["pending", "approved", "declined", "cancelled"];
    let first_day = date("2026-12-07");
    for i in 0..24_i64 {
        let user = if i < 2 {
            5
        } else {
            6 + (i * 5) % (employees as i64 - 5).max(1)
        };
        let user = user.min(employees as i64);
        let status = if i < 2 {
            states[i as usize]
        } else {
            states[(i % 4) as usize]
        };
        let start = first_day + i * 3;
        let end = start + i % 3;
        let at = stamp(1000 + i as u64);
        let mut doc = json!({
            "created_at": at, "updated_at": at, "user_id": user,
            "start_date": format_date(start), "end_date": format_date(end), "status": status,
            "leave_units": crate::time::weekdays_between(start, end), "optional_leave_units": 0,
            "leave_type_id": 1 + i % 4, "status_comments": Value::Null,
            "approved_by_id": if status == "approved" { Value::from(4) } else { Value::Null },
            "applied_by_id": user,
            "cancelled_by_id": if status == "cancelled" { Value::from(user) } else { Value::Null },
            "rejected_by_id": if status == "declined" { Value::from(3) } else { Value::Null },
            "comments": "Family trip",
            "rejected_at": if status == "declined" { Value::from(at.clone()) } else { Value::Null },
            "cancelled_at": if status == "cancelled" { Value::from(at.clone()) } else { Value::Null },
            "cancelled_due_to_exit": false,
        });
        store.insert(TIME_OFFS, &mut doc)?;
    }
    for (label, _) in KEYED_USERS {
        let position = KEYED_USERS
            .iter()
            .position(|(l, _)| *l == label)
            .unwrap_or(0);
        store.add_key(&tokens(), label, position as i64 + 1)?;
    }
    Ok(())
}

fn seed_fields(store: &Store) -> Result<(), ApiError> {
    let sections = [
        ("basic_information", "Basic Information", "Personal"),
        (
            "additional_information",
            "Additional Information",
            "Personal",
        ),
    ];
    let mut position = 0;
    for (name, label, tab) in sections {
        position += 1;
        let mut doc = with(
            base(position),
            json!({"employee_form_id": 1, "name": name, "label": label,
                   "field_type": "field_group", "position": position, "required": false,
                   "default": true, "viewable_by": "all", "editable_by": "hr", "tab": tab,
                   "field_scopes": []}),
        );
        store.insert(EMPLOYEE_FIELDS, &mut doc)?;
    }
    let fields = [
        (
            "first_name",
            "First Name",
            "text",
            "Basic Information",
            true,
            true,
        ),
        (
            "last_name",
            "Last Name",
            "text",
            "Basic Information",
            true,
            true,
        ),
        (
            "official_email",
            "Official Email",
            "standard_email",
            "Basic Information",
            true,
            true,
        ),
        (
            "cf_t_shirt_size",
            "T-shirt size",
            "dropdown",
            "Additional Information",
            false,
            false,
        ),
        (
            "cf_github_handle",
            "GitHub handle",
            "text",
            "Additional Information",
            false,
            false,
        ),
        (
            "cf_works_remotely",
            "Works remotely",
            "checkbox",
            "Additional Information",
            false,
            false,
        ),
    ];
    for (name, label, field_type, section, required, default) in fields {
        position += 1;
        let mut doc = with(
            base(position),
            json!({"employee_form_id": 1, "name": name, "label": label,
                   "field_type": field_type, "position": position, "required": required,
                   "default": default, "section_label": section, "field_scopes": []}),
        );
        store.insert(EMPLOYEE_FIELDS, &mut doc)?;
    }
    Ok(())
}
