//! The endpoints of the document's table: routing, roles, validation and answers.

use iparams_core::app::hr_service::{
    self, BLOOD_GROUPS, EMBEDDED, EMPLOYEE_SORTS, EMPLOYEE_STATUSES, GENDERS, PHONE_NUMBER_NAMES,
    SORT_TYPES, TIME_OFF_STATUSES, WORK_NUMBER_NAMES,
};
use iparams_serve::percent_encode;
use rusqlite::types::Value as Sql;
use serde_json::{Map, Value, json};

use crate::call::{APPROVER_ROLES, Call, HR_ROLES, Records, Reply};
use crate::error::{ApiError, ErrorItem};
use crate::store::{
    EMPLOYEE_FIELDS, EMPLOYEES, ORG_KINDS, ROLES, SHIFTS, Store, TIME_OFF_TYPES, TIME_OFFS,
};
use crate::time::{parse_date, parse_timestamp, weekdays_between};

/// The default (and only) page size.
pub const PAGE_SIZE: i64 = hr_service::PAGE_SIZE as i64;

type Operation = fn(&Records, &str, &Call<'_>) -> Result<Reply, ApiError>;

/// A path's methods and the operation that serves them.
pub(crate) struct Route {
    pub methods: &'static [&'static str],
    pub operation: Operation,
}

fn is_id(segment: &str) -> bool {
    !segment.is_empty()
        && segment.len() <= 18
        && segment.bytes().all(|b| b.is_ascii_digit())
        && segment.bytes().any(|b| b != b'0')
}

/// The route of a path split at `/` (without the leading empty part).
pub(crate) fn route(segments: &[&str]) -> Option<Route> {
    let route = |methods, operation| Some(Route { methods, operation });
    match segments {
        ["api", "employees"] => route(&["GET", "POST"], employees),
        ["api", "employees", id] if is_id(id) => route(&["GET", "PUT"], employee),
        ["api", "employees", id, "send_invite"] if is_id(id) => route(&["PUT"], send_invite),
        ["api", "employee_fields"] => route(&["GET", "POST"], employee_fields),
        ["api", kind] if ORG_KINDS.contains(kind) => route(&["GET"], org_list),
        ["api", "roles"] => route(&["GET"], org_list),
        ["api", "time_offs"] => route(&["GET", "POST"], time_offs),
        ["api", "time_offs", id] if is_id(id) => route(&["GET"], time_off),
        ["api", "time_offs", id, "cancel" | "approve"] if is_id(id) => {
            route(&["PUT"], time_off_transition)
        }
        ["api", "time_off_types"] => route(&["GET"], org_list),
        ["api", "time_off_types", id] if is_id(id) => route(&["GET"], time_off_type),
        _ => None,
    }
}

fn path_id(call: &Call<'_>, index: usize) -> i64 {
    call.path
        .get(index)
        .and_then(|s| s.parse().ok())
        .unwrap_or(0)
}

fn require(call: &Call<'_>, roles: &[i64], what: &str) -> Result<(), ApiError> {
    if call.caller.has_any(roles) {
        Ok(())
    } else {
        Err(ApiError::forbidden(what))
    }
}

/// The last value given for query parameter `name`.
/// Branch ids one `location` filter may name (the document gives no limit; each is a
/// parameter of one SQL statement, and SQLite takes 32,766 at most).
pub const MAX_LOCATIONS: usize = 1000;

fn param<'c>(call: &'c Call<'_>, name: &str) -> Option<&'c str> {
    call.query
        .iter()
        .rev()
        .find(|(n, _)| n == name)
        .map(|(_, v)| v.as_str())
}

fn enum_param<'c>(
    call: &'c Call<'_>,
    name: &str,
    allowed: &[&str],
) -> Result<Option<&'c str>, ApiError> {
    match param(call, name) {
        None => Ok(None),
        Some(value) if allowed.contains(&value) => Ok(Some(value)),
        Some(value) => Err(ApiError::field(
            name,
            "invalid_value",
            format!(
                "`{name}` must be one of {}; got {value:?}",
                allowed.join(", ")
            ),
        )),
    }
}

fn bool_param(call: &Call<'_>, name: &str) -> Result<Option<bool>, ApiError> {
    Ok(enum_param(call, name, &["true", "false"])?.map(|v| v == "true"))
}

fn int_param(call: &Call<'_>, name: &str) -> Result<Option<i64>, ApiError> {
    param(call, name)
        .map(|value| {
            value.trim().parse::<i64>().map_err(|_| {
                ApiError::field(
                    name,
                    "invalid_value",
                    format!("`{name}` must be an integer id"),
                )
            })
        })
        .transpose()
}

fn date_param(call: &Call<'_>, name: &str) -> Result<Option<i64>, ApiError> {
    param(call, name)
        .map(|value| {
            parse_date(value).ok_or_else(|| {
                ApiError::field(
                    name,
                    "invalid_value",
                    format!("`{name}` must be a date YYYY-MM-DD"),
                )
            })
        })
        .transpose()
}

/// `page`: 1 unless given; a positive integer.
fn page(call: &Call<'_>) -> Result<i64, ApiError> {
    match param(call, "page") {
        None => Ok(1),
        Some(value) => match value.trim().parse::<i64>() {
            Ok(page) if (1..i64::MAX / PAGE_SIZE).contains(&page) => Ok(page),
            _ => Err(ApiError::field(
                "page",
                "invalid_value",
                "`page` must be a positive integer",
            )),
        },
    }
}

fn sort_descending(call: &Call<'_>) -> Result<bool, ApiError> {
    Ok(enum_param(call, "sort_type", &SORT_TYPES)? == Some("desc"))
}

/// A page of a list with its headers: `total-objects` (every object the filters select),
/// `total-pages`, and `link` to the next page when there is one.
/// The records that meet every one of `conditions` (SQL over `doc`, with `values` bound to
/// their `?N`): how many there are, and page `page` of them in `order`.
fn select_page(
    records: &Records,
    conditions: &[String],
    values: &[Sql],
    order: &str,
    page: i64,
) -> Result<(i64, Vec<Value>), ApiError> {
    let filter = conditions.join(" AND ");
    let store = records.store();
    let refs: Vec<&dyn rusqlite::ToSql> =
        values.iter().map(|v| v as &dyn rusqlite::ToSql).collect();
    let total = store.count(
        &format!("SELECT COUNT(*) FROM records WHERE {filter}"),
        &refs,
    )?;
    let sql = format!(
        "SELECT doc FROM records WHERE {filter} ORDER BY {order} LIMIT {PAGE_SIZE} OFFSET {}",
        (page - 1) * PAGE_SIZE
    );
    Ok((total, store.select(&sql, &refs)?))
}

fn paged(records: &Records, call: &Call<'_>, page: i64, total: i64, items: Vec<Value>) -> Reply {
    let pages = (total + PAGE_SIZE - 1) / PAGE_SIZE;
    let mut reply = Reply::ok(Value::Array(items));
    reply
        .headers
        .push(("total-objects".into(), total.to_string()));
    reply
        .headers
        .push(("total-pages".into(), pages.to_string()));
    if page < pages {
        let mut query: Vec<String> = call
            .query
            .iter()
            .filter(|(name, _)| name != "page")
            .map(|(name, value)| format!("{}={}", percent_encode(name), percent_encode(value)))
            .collect();
        query.push(format!("page={}", page + 1));
        reply.headers.push((
            "link".into(),
            format!(
                "<{}{}?{}>; rel=\"next\"",
                records.base_url,
                call.raw_path,
                query.join("&")
            ),
        ));
    }
    reply
}

/// A page of an in-memory list (the short lists), by id, reversed for `sort_type=desc`.
fn paged_list(
    records: &Records,
    call: &Call<'_>,
    mut items: Vec<Value>,
) -> Result<Reply, ApiError> {
    let page = page(call)?;
    if sort_descending(call)? {
        items.reverse();
    }
    let total = i64::try_from(items.len()).unwrap_or(i64::MAX);
    let skip = usize::try_from((page - 1) * PAGE_SIZE).unwrap_or(usize::MAX);
    let items = items
        .into_iter()
        .skip(skip)
        .take(PAGE_SIZE as usize)
        .collect();
    Ok(paged(records, call, page, total, items))
}

/// A record as the API shows it: without the sandbox's own `_` attributes.
fn public(mut doc: Value) -> Value {
    if let Some(object) = doc.as_object_mut() {
        object.retain(|key, _| !key.starts_with('_'));
    }
    doc
}

/// Organization lists, roles and time-off types.
fn org_list(records: &Records, _method: &str, call: &Call<'_>) -> Result<Reply, ApiError> {
    let kind = call.path.get(1).copied().unwrap_or("");
    require(call, HR_ROLES, &format!("listing {kind}"))?;
    let items = records.store().all(kind)?;
    paged_list(records, call, items.into_iter().map(public).collect())
}

fn time_off_type(records: &Records, _method: &str, call: &Call<'_>) -> Result<Reply, ApiError> {
    require(call, HR_ROLES, "reading time-off types")?;
    let id = path_id(call, 2);
    match records.store().get(TIME_OFF_TYPES, id)? {
        Some(doc) => Ok(Reply::ok(public(doc))),
        None => Err(ApiError::not_found(format!("No time-off type {id}"))),
    }
}

// ---------------------------------------------------------------------------------------
// Employees

fn employees(records: &Records, method: &str, call: &Call<'_>) -> Result<Reply, ApiError> {
    if method == "POST" {
        require(call, HR_ROLES, "creating employees")?;
        return create_employee(records, call);
    }
    require(call, HR_ROLES, "listing employees")?;
    let page = page(call)?;
    let status = enum_param(call, "status", &EMPLOYEE_STATUSES)?;
    let draft = bool_param(call, "draft")?;
    let terminated = bool_param(call, "terminated")?;
    let deleted = bool_param(call, "deleted")?;
    let sort = enum_param(call, "sort", &EMPLOYEE_SORTS)?.unwrap_or("first_name");
    let descending = sort_descending(call)?;
    let mut conditions = vec!["kind = 'employees'".to_owned()];
    let mut values: Vec<Sql> = Vec::new();
    let mut equal = |attribute: &str, value: Sql, conditions: &mut Vec<String>| {
        values.push(value);
        conditions.push(format!(
            "json_extract(doc, '$.{attribute}') = ?{}",
            values.len()
        ));
    };
    if let Some(status) = status {
        equal("status", Sql::Text(status.into()), &mut conditions);
    }
    for name in [
        "first_name",
        "last_name",
        "personal_email",
        "official_email",
        "employee_type",
    ] {
        if let Some(value) = param(call, name) {
            equal(name, Sql::Text(value.into()), &mut conditions);
        }
    }
    for (name, attribute) in [
        ("department", "department_id"),
        ("business_unit", "business_unit_id"),
        ("reporting_manager", "reporting_to_id"),
    ] {
        if let Some(id) = int_param(call, name)? {
            equal(attribute, Sql::Integer(id), &mut conditions);
        }
    }
    for (name, value) in [
        ("draft", draft),
        ("terminated", terminated),
        ("deleted", deleted),
    ] {
        if let Some(value) = value {
            equal(name, Sql::Integer(i64::from(value)), &mut conditions);
        }
    }
    if let Some(since) = param(call, "updated_since") {
        let ms = parse_timestamp(since).ok_or_else(|| {
            ApiError::field(
                "updated_since",
                "invalid_value",
                "`updated_since` must be a date-time in UTC, such as 2026-01-31T00:00:00Z",
            )
        })?;
        equal(
            "updated_at",
            Sql::Text(crate::time::format_timestamp(ms)),
            &mut conditions,
        );
        if let Some(last) = conditions.last_mut() {
            *last = last.replace(" = ?", " > ?");
        }
    }
    if let Some(locations) = param(call, "location") {
        if locations.split(',').nth(MAX_LOCATIONS).is_some() {
            return Err(ApiError::field(
                "location",
                "invalid_value",
                format!("`location` takes at most {MAX_LOCATIONS} branch ids"),
            ));
        }
        let mut marks = Vec::new();
        for part in locations.split(',') {
            let id = part.trim().parse::<i64>().map_err(|_| {
                ApiError::field(
                    "location",
                    "invalid_value",
                    "`location` must be branch ids separated by commas",
                )
            })?;
            values.push(Sql::Integer(id));
            marks.push(format!("?{}", values.len()));
        }
        conditions.push(format!(
            "json_extract(doc, '$.branch_id') IN ({})",
            marks.join(", ")
        ));
    }
    // The document's four combinations that always select nothing.
    let always_empty = (status == Some("inactive") && draft == Some(true))
        || (status == Some("active") && terminated == Some(true))
        || (status == Some("inactive") && deleted == Some(false))
        || (draft == Some(true) && terminated == Some(true) && deleted == Some(true));
    if always_empty {
        return Ok(paged(records, call, page, 0, Vec::new()));
    }
    let direction = if descending { "DESC" } else { "ASC" };
    let order = format!("json_extract(doc, '$.{sort}') COLLATE NOCASE {direction}, id {direction}");
    let (total, items) = select_page(records, &conditions, &values, &order, page)?;
    let items = items.into_iter().map(public).collect();
    Ok(paged(records, call, page, total, items))
}

fn employee(records: &Records, method: &str, call: &Call<'_>) -> Result<Reply, ApiError> {
    let id = path_id(call, 2);
    if method == "PUT" {
        require(call, HR_ROLES, "updating employees")?;
        return update_employee(records, call, id);
    }
    require(call, HR_ROLES, "reading employees")?;
    let store = records.store();
    let doc = store
        .get(EMPLOYEES, id)?
        .ok_or_else(|| ApiError::not_found(format!("No employee {id}")))?;
    let mut includes = Vec::new();
    if let Some(list) = param(call, "include") {
        for name in list.split(',').map(str::trim).filter(|n| !n.is_empty()) {
            if !EMBEDDED.contains(&name) {
                return Err(ApiError::field(
                    "include",
                    "invalid_value",
                    format!("`{name}` is not an embedded attribute of an employee"),
                ));
            }
            includes.push(name);
        }
    }
    let mut shown = public(doc.clone());
    if let Some(object) = shown.as_object_mut() {
        for name in includes {
            object.insert(name.to_owned(), embedded(&store, &doc, name)?);
        }
    }
    Ok(Reply::ok(shown))
}

/// The employee model of employee `id`: `id`, names, official e-mail and city.
fn employee_model(store: &Store, id: Option<i64>) -> Result<Value, ApiError> {
    let Some(id) = id else {
        return Ok(Value::Null);
    };
    Ok(match store.get(EMPLOYEES, id)? {
        Some(doc) => json!({
            "id": id,
            "first_name": doc.get("first_name"),
            "last_name": doc.get("last_name"),
            "official_email": doc.get("official_email"),
            "city": doc.pointer("/address/city"),
        }),
        None => Value::Null,
    })
}

fn embedded(store: &Store, doc: &Value, name: &str) -> Result<Value, ApiError> {
    let id_of = |attribute: &str| doc.get(attribute).and_then(Value::as_i64);
    let record = |kind: &str, attribute: &str| -> Result<Value, ApiError> {
        Ok(match id_of(attribute) {
            Some(id) => store.get(kind, id)?.map(public).unwrap_or(Value::Null),
            None => Value::Null,
        })
    };
    Ok(match name {
        "branch" => record("branches", "branch_id")?,
        "team" => record("teams", "team_id")?,
        "business_unit" => record("business_units", "business_unit_id")?,
        "sub_department" => record("sub_departments", "sub_department_id")?,
        "department" => record("departments", "department_id")?,
        "level" => record("levels", "level_id")?,
        "shift" => record(SHIFTS, "shift_id")?,
        "reporting_to" => employee_model(store, id_of("reporting_to_id"))?,
        "hr_incharge" => employee_model(store, id_of("hr_incharge_id"))?,
        "roles" => {
            let mut roles = Vec::new();
            for id in doc
                .get("_role_ids")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
                .filter_map(Value::as_i64)
            {
                if let Some(role) = store.get(ROLES, id)? {
                    roles.push(role);
                }
            }
            Value::Array(roles)
        }
        "time_off" => doc.get("time_off").cloned().unwrap_or(json!([])),
        "user_function"
        | "cost_center"
        | "user_title"
        | "user_suffix_name"
        | "user_honorary_suffix"
        | "user_professional_suffix"
        | "user_academic_suffix"
        | "retirement_status"
        | "citizenship_status"
        | "termination_category" => Value::Null,
        _ => json!([]),
    })
}

/// Checks an employee body (create when `current` is `None`, else update of `current`) and
/// returns the attributes to store; every attribute at fault is reported at once.
fn bad(errors: &mut Vec<ErrorItem>, field: &str, message: String) {
    errors.push(ErrorItem::at(field, "invalid_value", message));
}

fn employee_changes(
    store: &Store,
    body: &Value,
    current: Option<(i64, &Value)>,
) -> Result<Map<String, Value>, ApiError> {
    let creating = current.is_none();
    let mut errors = Vec::new();
    let mut out = Map::new();
    let given = |name: &str| body.get(name).filter(|v| !v.is_null());
    for name in ["first_name", "last_name", "official_email"] {
        match given(name) {
            Some(Value::String(s)) if !s.trim().is_empty() => {
                out.insert(name.into(), Value::String(s.clone()));
            }
            Some(_) => bad(
                &mut errors,
                name,
                format!("`{name}` must be a non-empty string"),
            ),
            None if creating => errors.push(ErrorItem::at(
                name,
                "missing_field",
                format!("`{name}` is required"),
            )),
            None => {}
        }
    }
    if let Some(Value::String(email)) = out.get("official_email") {
        let shaped = email
            .split_once('@')
            .is_some_and(|(a, b)| !a.is_empty() && b.contains('.'));
        if !shaped {
            bad(
                &mut errors,
                "official_email",
                "`official_email` is not an e-mail address".into(),
            );
        } else {
            let others = store.count(
                "SELECT COUNT(*) FROM records WHERE kind = 'employees'
                 AND lower(json_extract(doc, '$.official_email')) = lower(?1) AND id != ?2",
                &[email, &current.map_or(0, |(id, _)| id)],
            )?;
            if others > 0 {
                errors.push(ErrorItem::at(
                    "official_email",
                    "duplicate_value",
                    "Another employee has this `official_email`",
                ));
            }
        }
    }
    match given("role_ids") {
        Some(Value::Array(ids)) if !ids.is_empty() => {
            if ids
                .iter()
                .all(|id| id.as_i64().is_some_and(|id| (1..=5).contains(&id)))
            {
                out.insert("_role_ids".into(), Value::Array(ids.clone()));
            } else {
                bad(
                    &mut errors,
                    "role_ids",
                    "`role_ids` must name roles 1 (Account Admin) to 5 (Employee)".into(),
                );
            }
        }
        Some(_) => bad(
            &mut errors,
            "role_ids",
            "`role_ids` must be a non-empty array of role ids".into(),
        ),
        None if creating => errors.push(ErrorItem::at(
            "role_ids",
            "missing_field",
            "`role_ids` is required",
        )),
        None => {}
    }
    for name in [
        "middle_name",
        "personal_email",
        "employee_type",
        "designation",
        "id_card_details",
        "nick_name",
        "workstation_number",
        "cost_center_id",
    ] {
        match given(name) {
            Some(Value::String(s)) => {
                if name == "designation" && s.chars().count() > 128 {
                    bad(
                        &mut errors,
                        name,
                        "`designation` is at most 128 characters".into(),
                    );
                } else {
                    out.insert(name.into(), Value::String(s.clone()));
                }
            }
            Some(Value::Number(n)) if name == "cost_center_id" => {
                out.insert(name.into(), Value::String(n.to_string()));
            }
            Some(_) => bad(&mut errors, name, format!("`{name}` must be a string")),
            None => {}
        }
    }
    match given("employee_id") {
        Some(Value::Number(n)) if n.is_i64() => {
            out.insert("employee_id".into(), Value::String(n.to_string()));
        }
        Some(Value::String(s)) if !s.is_empty() => {
            out.insert("employee_id".into(), Value::String(s.clone()));
        }
        Some(_) => bad(
            &mut errors,
            "employee_id",
            "`employee_id` must be an integer".into(),
        ),
        None => {}
    }
    for name in ["date_of_birth", "joining_date"] {
        match given(name) {
            Some(Value::String(s)) if parse_date(s).is_some() => {
                out.insert(name.into(), Value::String(s.clone()));
            }
            Some(_) => bad(
                &mut errors,
                name,
                format!("`{name}` must be a date YYYY-MM-DD that exists"),
            ),
            None => {}
        }
    }
    for (name, allowed) in [("gender", &GENDERS[..]), ("blood_group", &BLOOD_GROUPS[..])] {
        match given(name) {
            Some(Value::String(s)) if allowed.contains(&s.as_str()) => {
                out.insert(name.into(), Value::String(s.clone()));
            }
            Some(_) => bad(
                &mut errors,
                name,
                format!("`{name}` must be one of {}", allowed.join(", ")),
            ),
            None => {}
        }
    }
    for name in ["draft", "send_invite_email"] {
        match given(name) {
            Some(Value::Bool(b)) => {
                out.insert(name.into(), Value::Bool(*b));
            }
            Some(_) => bad(&mut errors, name, format!("`{name}` must be a boolean")),
            None => {}
        }
    }
    for (name, kind) in [
        ("branch_id", "branches"),
        ("department_id", "departments"),
        ("sub_department_id", "sub_departments"),
        ("business_unit_id", "business_units"),
        ("team_id", "teams"),
        ("level_id", "levels"),
        ("shift_id", SHIFTS),
        ("reporting_to_id", EMPLOYEES),
        ("hr_incharge_id", EMPLOYEES),
    ] {
        if let Some(value) = given(name) {
            match value.as_i64() {
                Some(id) if store.exists(kind, id)? => {
                    out.insert(name.into(), Value::from(id));
                }
                Some(id) => errors.push(ErrorItem::at(
                    name,
                    "invalid_id",
                    format!("There is no {} with id {id}", kind.trim_end_matches('s')),
                )),
                None => bad(&mut errors, name, format!("`{name}` must be an integer id")),
            }
        }
    }
    for (name, names) in [
        ("work_numbers", &WORK_NUMBER_NAMES),
        ("phone_numbers", &PHONE_NUMBER_NAMES),
    ] {
        match given(name) {
            Some(Value::Array(items)) => {
                let fine = items.iter().all(|item| {
                    item.get("name")
                        .and_then(Value::as_str)
                        .is_some_and(|n| names.contains(&n))
                        && item.get("number").is_some_and(Value::is_string)
                });
                if fine {
                    out.insert(name.into(), Value::Array(items.clone()));
                } else {
                    bad(
                        &mut errors,
                        name,
                        format!(
                            "each of `{name}` needs `name` ({}) and a string `number`",
                            names.join(", ")
                        ),
                    );
                }
            }
            Some(_) => bad(&mut errors, name, format!("`{name}` must be an array")),
            None => {}
        }
    }
    let (min_length, max_length) = hr_service::ADDRESS_PART_LENGTH;
    match given("address") {
        Some(Value::Object(address)) => {
            let mut stored = Map::new();
            for (part, value) in address {
                let field = format!("address.{part}");
                if !hr_service::ADDRESS_PARTS.contains(&part.as_str()) {
                    bad(
                        &mut errors,
                        &field,
                        format!("`{part}` is not a part of an address"),
                    );
                    continue;
                }
                match value.as_str() {
                    Some(s) if (min_length..=max_length).contains(&s.chars().count()) => {
                        let key = if part == "country" {
                            "country_code"
                        } else {
                            part
                        };
                        stored.insert(key.into(), Value::String(s.into()));
                    }
                    _ => bad(
                        &mut errors,
                        &field,
                        format!(
                            "`{part}` must be a string of {min_length} to {max_length} characters"
                        ),
                    ),
                }
            }
            out.insert("address".into(), Value::Object(stored));
        }
        Some(_) => bad(&mut errors, "address", "`address` must be an object".into()),
        None => {}
    }
    match given("communication_address") {
        Some(Value::Object(address)) => {
            out.insert(
                "communication_address".into(),
                Value::Object(address.clone()),
            );
        }
        Some(_) => bad(
            &mut errors,
            "communication_address",
            "`communication_address` must be an object".into(),
        ),
        None => {}
    }
    match given("custom_fields") {
        Some(Value::Object(fields)) => {
            let defined = store.all(EMPLOYEE_FIELDS)?;
            let mut values = current
                .and_then(|(_, doc)| doc.get("custom_field_values").and_then(Value::as_object))
                .cloned()
                .unwrap_or_default();
            for (name, value) in fields {
                let field = format!("custom_fields.{name}");
                let Some(definition) = defined.iter().find(|f| {
                    f.get("name").and_then(Value::as_str) == Some(name)
                        && f.get("field_type").and_then(Value::as_str) != Some("field_group")
                        && f.get("default") == Some(&Value::Bool(false))
                }) else {
                    errors.push(ErrorItem::at(
                        field,
                        "invalid_field",
                        format!("`{name}` is not a custom employee field"),
                    ));
                    continue;
                };
                let field_type = definition
                    .get("field_type")
                    .and_then(Value::as_str)
                    .unwrap_or("text");
                let fits = match field_type {
                    "checkbox" => value.as_i64().is_some_and(|v| v == 0 || v == 1),
                    "number" | "attachment" => value.is_number(),
                    "social_profile" | "standard_multi_dropdown" => value.is_array(),
                    "dropdown" => value.is_string() || value.is_object(),
                    _ => value.is_string() || value.is_null(),
                };
                if fits {
                    values.insert(name.clone(), value.clone());
                } else {
                    bad(
                        &mut errors,
                        &field,
                        format!("`{name}` is a {field_type} field; the value does not fit"),
                    );
                }
            }
            out.insert("custom_field_values".into(), Value::Object(values));
        }
        Some(_) => bad(
            &mut errors,
            "custom_fields",
            "`custom_fields` must be an object".into(),
        ),
        None => {}
    }
    ApiError::fields(errors)?;
    Ok(out)
}

fn create_employee(records: &Records, call: &Call<'_>) -> Result<Reply, ApiError> {
    let store = records.store();
    let changes = employee_changes(&store, &call.body, None)?;
    let now = records.now();
    let types = store.all(TIME_OFF_TYPES)?;
    let time_off: Vec<Value> = types
        .iter()
        .map(|t| {
            json!({"leave_type": {"id": t.get("id"), "value": t.get("name")},
                   "leaves_availed": 0, "leave_credits": 0})
        })
        .collect();
    let mut doc = json!({
        "created_at": now, "updated_at": now, "deleted": false, "work_numbers": [],
        "phone_numbers": [], "status": "active", "draft": false, "terminated": false,
        "time_off": time_off, "custom_field_values": {},
    });
    if let Some(object) = doc.as_object_mut() {
        object.extend(changes);
        object.remove("send_invite_email");
    }
    store.insert(EMPLOYEES, &mut doc)?;
    Ok(Reply::created(public(doc)))
}

fn update_employee(records: &Records, call: &Call<'_>, id: i64) -> Result<Reply, ApiError> {
    let store = records.store();
    let mut doc = store
        .get(EMPLOYEES, id)?
        .ok_or_else(|| ApiError::not_found(format!("No employee {id}")))?;
    let changes = employee_changes(&store, &call.body, Some((id, &doc)))?;
    let now = records.now();
    if let Some(object) = doc.as_object_mut() {
        object.extend(changes);
        object.remove("send_invite_email");
        object.insert("updated_at".into(), Value::String(now));
    }
    store.update(EMPLOYEES, id, &doc)?;
    Ok(Reply::ok(public(doc)))
}

fn send_invite(records: &Records, _method: &str, call: &Call<'_>) -> Result<Reply, ApiError> {
    require(call, HR_ROLES, "sending invitations")?;
    let id = path_id(call, 2);
    let store = records.store();
    let mut doc = store
        .get(EMPLOYEES, id)?
        .ok_or_else(|| ApiError::not_found(format!("No employee {id}")))?;
    let send = match call.body.get("send_invite_email") {
        Some(Value::Bool(send)) => *send,
        Some(_) => {
            return Err(ApiError::field(
                "send_invite_email",
                "invalid_value",
                "`send_invite_email` must be a boolean",
            ));
        }
        None => {
            return Err(ApiError::field(
                "send_invite_email",
                "missing_field",
                "`send_invite_email` is required",
            ));
        }
    };
    if let Some(object) = doc.as_object_mut() {
        object.insert("updated_at".into(), Value::String(records.now()));
        if send {
            // No mail leaves the sandbox: the invitation is only counted.
            let sent = object
                .get("_invitations")
                .and_then(Value::as_i64)
                .unwrap_or(0);
            object.insert("_invitations".into(), Value::from(sent + 1));
        }
    }
    store.update(EMPLOYEES, id, &doc)?;
    Ok(Reply::ok(public(doc)))
}

// ---------------------------------------------------------------------------------------
// Employee fields

fn employee_fields(records: &Records, method: &str, call: &Call<'_>) -> Result<Reply, ApiError> {
    if method == "GET" {
        require(call, HR_ROLES, "listing employee fields")?;
        let items = records.store().all(EMPLOYEE_FIELDS)?;
        return paged_list(records, call, items);
    }
    require(call, HR_ROLES, "creating employee fields")?;
    let store = records.store();
    let body = &call.body;
    let mut errors = Vec::new();
    let label = match body.get("label") {
        Some(Value::String(s)) if !s.trim().is_empty() => Some(s.trim().to_owned()),
        Some(Value::Number(n)) => Some(n.to_string()),
        Some(v) if !v.is_null() => {
            errors.push(ErrorItem::at(
                "label",
                "invalid_value",
                "`label` must be a string",
            ));
            None
        }
        _ => {
            errors.push(ErrorItem::at(
                "label",
                "missing_field",
                "`label` is required",
            ));
            None
        }
    };
    let fields = store.all(EMPLOYEE_FIELDS)?;
    let section = match body.get("section_name") {
        Some(Value::String(name)) => {
            let section = fields.iter().find(|f| {
                f.get("name").and_then(Value::as_str) == Some(name)
                    && f.get("field_type").and_then(Value::as_str) == Some("field_group")
            });
            if section.is_none() {
                errors.push(ErrorItem::at(
                    "section_name",
                    "invalid_id",
                    format!("There is no section named {name:?}"),
                ));
            }
            section
        }
        Some(v) if !v.is_null() => {
            errors.push(ErrorItem::at(
                "section_name",
                "invalid_value",
                "`section_name` must be a string",
            ));
            None
        }
        _ => {
            errors.push(ErrorItem::at(
                "section_name",
                "missing_field",
                "`section_name` is required",
            ));
            None
        }
    };
    let field_type = match body.get("field_type") {
        None | Some(Value::Null) => "text",
        Some(Value::String(t)) if t == "text" || t == "number" => t.as_str(),
        Some(_) => {
            errors.push(ErrorItem::at(
                "field_type",
                "invalid_value",
                "`field_type` must be text or number",
            ));
            "text"
        }
    };
    let required = match body.get("required") {
        None | Some(Value::Null) => false,
        Some(Value::Bool(b)) => *b,
        Some(_) => {
            errors.push(ErrorItem::at(
                "required",
                "invalid_value",
                "`required` must be a boolean",
            ));
            false
        }
    };
    ApiError::fields(errors)?;
    let (Some(label), Some(section)) = (label, section) else {
        return Err(ApiError::new(
            400,
            "invalid_value",
            "label and section_name",
        ));
    };
    let slug: String = label
        .to_lowercase()
        .chars()
        .map(|c| if c.is_alphanumeric() { c } else { '_' })
        .collect();
    let mut name = format!("cf_{}", slug.trim_matches('_'));
    let taken = |candidate: &str| {
        fields
            .iter()
            .any(|f| f.get("name").and_then(Value::as_str) == Some(candidate))
    };
    if taken(&name) {
        let base = name.clone();
        let mut n = 2;
        while taken(&format!("{base}_{n}")) {
            n += 1;
        }
        name = format!("{base}_{n}");
    }
    let now = records.now();
    let mut doc = json!({
        "created_at": now, "updated_at": now, "deleted": false,
        "employee_form_id": section.get("employee_form_id"), "name": name, "label": label,
        "field_type": field_type, "position": fields.len() + 1, "required": required,
        "default": false, "section_label": section.get("label"), "field_scopes": [],
    });
    store.insert(EMPLOYEE_FIELDS, &mut doc)?;
    Ok(Reply::created(doc))
}

// ---------------------------------------------------------------------------------------
// Time-offs

fn time_offs(records: &Records, method: &str, call: &Call<'_>) -> Result<Reply, ApiError> {
    if method == "POST" {
        // Anyone may ask for time off, for themselves.
        return create_time_off(records, call);
    }
    require(call, HR_ROLES, "listing time-offs")?;
    let page = page(call)?;
    let descending = sort_descending(call)?;
    let mut conditions = vec!["kind = 'time_offs'".to_owned()];
    let mut values: Vec<Sql> = Vec::new();
    if let Some(status) = enum_param(call, "status", &TIME_OFF_STATUSES)? {
        values.push(Sql::Text(status.into()));
        conditions.push(format!("json_extract(doc, '$.status') = ?{}", values.len()));
    }
    for (name, attribute) in [("user", "user_id"), ("leave_type", "leave_type_id")] {
        if let Some(id) = int_param(call, name)? {
            values.push(Sql::Integer(id));
            conditions.push(format!(
                "json_extract(doc, '$.{attribute}') = ?{}",
                values.len()
            ));
        }
    }
    if let Some(branch) = int_param(call, "location")? {
        values.push(Sql::Integer(branch));
        conditions.push(format!(
            "json_extract(doc, '$.applied_by_id') IN (SELECT id FROM records
             WHERE kind = 'employees' AND json_extract(doc, '$.branch_id') = ?{})",
            values.len()
        ));
    }
    let start = date_param(call, "start_date")?;
    let end = date_param(call, "end_date")?;
    match (start, end) {
        (None, None) => {}
        (Some(_), None) => {
            return Err(ApiError::field(
                "end_date",
                "missing_field",
                "`end_date` is required with `start_date`",
            ));
        }
        (None, Some(_)) => {
            return Err(ApiError::field(
                "start_date",
                "missing_field",
                "`start_date` is required with `end_date`",
            ));
        }
        (Some(start), Some(end)) if end <= start => {
            return Err(ApiError::field(
                "end_date",
                "invalid_value",
                "`end_date` must be later than `start_date`",
            ));
        }
        (Some(start), Some(end)) => {
            // Requests within the period: starting on or after start_date, ending on or
            // before end_date (dates compare as text in this format).
            values.push(Sql::Text(crate::time::format_date(start)));
            conditions.push(format!(
                "json_extract(doc, '$.start_date') >= ?{}",
                values.len()
            ));
            values.push(Sql::Text(crate::time::format_date(end)));
            conditions.push(format!(
                "json_extract(doc, '$.end_date') <= ?{}",
                values.len()
            ));
        }
    }
    let direction = if descending { "DESC" } else { "ASC" };
    let (total, items) = select_page(
        records,
        &conditions,
        &values,
        &format!("id {direction}"),
        page,
    )?;
    Ok(paged(records, call, page, total, items))
}

fn create_time_off(records: &Records, call: &Call<'_>) -> Result<Reply, ApiError> {
    let store = records.store();
    let body = &call.body;
    let mut errors = Vec::new();
    let date = |name: &str, errors: &mut Vec<ErrorItem>| match body.get(name) {
        Some(Value::String(s)) => {
            let day = parse_date(s);
            if day.is_none() {
                errors.push(ErrorItem::at(
                    name,
                    "invalid_value",
                    format!("`{name}` must be a date YYYY-MM-DD that exists"),
                ));
            }
            day
        }
        Some(v) if !v.is_null() => {
            errors.push(ErrorItem::at(
                name,
                "invalid_value",
                format!("`{name}` must be a date"),
            ));
            None
        }
        _ => {
            errors.push(ErrorItem::at(
                name,
                "missing_field",
                format!("`{name}` is required"),
            ));
            None
        }
    };
    let start = date("start_date", &mut errors);
    let end = date("end_date", &mut errors);
    if let (Some(start), Some(end)) = (start, end)
        && end < start
    {
        errors.push(ErrorItem::at(
            "end_date",
            "invalid_value",
            "`end_date` must not be before `start_date`",
        ));
    }
    match body.get("leave_type_id") {
        Some(v) if v.as_i64().is_some() => {
            let id = v.as_i64().unwrap_or(0);
            if !store.exists(TIME_OFF_TYPES, id)? {
                errors.push(ErrorItem::at(
                    "leave_type_id",
                    "invalid_id",
                    format!("There is no time-off type with id {id}"),
                ));
            }
        }
        Some(v) if !v.is_null() => errors.push(ErrorItem::at(
            "leave_type_id",
            "invalid_value",
            "`leave_type_id` must be an integer",
        )),
        _ => errors.push(ErrorItem::at(
            "leave_type_id",
            "missing_field",
            "`leave_type_id` is required",
        )),
    }
    match body.get("comments") {
        Some(Value::String(s)) if !s.trim().is_empty() => {}
        Some(v) if !v.is_null() && !v.is_string() => errors.push(ErrorItem::at(
            "comments",
            "invalid_value",
            "`comments` must be a string",
        )),
        _ => errors.push(ErrorItem::at(
            "comments",
            "missing_field",
            "`comments` is required",
        )),
    }
    let mut optional_days = 0;
    match body.get("optional_leave_days") {
        None | Some(Value::Null) => {}
        Some(Value::Array(days)) => {
            for day in days {
                match day.as_str().and_then(parse_date) {
                    Some(d) if start.is_none_or(|s| d >= s) && end.is_none_or(|e| d <= e) => {
                        optional_days += 1;
                    }
                    _ => {
                        errors.push(ErrorItem::at(
                            "optional_leave_days",
                            "invalid_value",
                            "`optional_leave_days` must be dates within the period",
                        ));
                        break;
                    }
                }
            }
        }
        Some(_) => errors.push(ErrorItem::at(
            "optional_leave_days",
            "invalid_value",
            "`optional_leave_days` must be an array of dates",
        )),
    }
    match body.get("notify_to") {
        None | Some(Value::Null) => {}
        Some(Value::Array(ids)) => {
            for id in ids {
                let known = match id.as_i64() {
                    Some(id) => store.exists(EMPLOYEES, id)?,
                    None => false,
                };
                if !known {
                    errors.push(ErrorItem::at(
                        "notify_to",
                        "invalid_id",
                        format!("`notify_to` names no employee: {id}"),
                    ));
                    break;
                }
            }
        }
        Some(_) => errors.push(ErrorItem::at(
            "notify_to",
            "invalid_value",
            "`notify_to` must be an array of employee ids",
        )),
    }
    for name in ["add_to_calendar", "auto_decline_events"] {
        if let Some(v) = body.get(name)
            && !v.is_null()
            && !v.is_boolean()
        {
            errors.push(ErrorItem::at(
                name,
                "invalid_value",
                format!("`{name}` must be a boolean"),
            ));
        }
    }
    ApiError::fields(errors)?;
    let (Some(start), Some(end)) = (start, end) else {
        return Err(ApiError::new(
            400,
            "invalid_value",
            "start_date and end_date",
        ));
    };
    let now = records.now();
    let caller = call.caller.id;
    let mut doc = json!({
        "created_at": now, "updated_at": now, "user_id": caller,
        "start_date": crate::time::format_date(start), "end_date": crate::time::format_date(end),
        "status": "pending",
        "leave_units": (weekdays_between(start, end) - optional_days).max(0),
        "optional_leave_units": optional_days,
        "leave_type_id": body.get("leave_type_id"), "status_comments": null,
        "approved_by_id": null, "applied_by_id": caller, "cancelled_by_id": null,
        "rejected_by_id": null, "comments": body.get("comments"), "rejected_at": null,
        "cancelled_at": null, "cancelled_due_to_exit": false,
    });
    store.insert(TIME_OFFS, &mut doc)?;
    Ok(Reply::created(doc))
}

fn time_off(records: &Records, _method: &str, call: &Call<'_>) -> Result<Reply, ApiError> {
    require(call, HR_ROLES, "reading time-offs")?;
    let id = path_id(call, 2);
    match records.store().get(TIME_OFFS, id)? {
        Some(doc) => Ok(Reply::ok(doc)),
        None => Err(ApiError::not_found(format!("No time-off {id}"))),
    }
}

/// Cancel (by the person who raised the request) or approve (by an approver role).
fn time_off_transition(
    records: &Records,
    _method: &str,
    call: &Call<'_>,
) -> Result<Reply, ApiError> {
    let id = path_id(call, 2);
    let action = call.path.get(3).copied().unwrap_or("");
    let store = records.store();
    let mut doc = store
        .get(TIME_OFFS, id)?
        .ok_or_else(|| ApiError::not_found(format!("No time-off {id}")))?;
    let status = doc
        .get("status")
        .and_then(Value::as_str)
        .unwrap_or("")
        .to_owned();
    let now = records.now();
    let caller = call.caller.id;
    let comments = match call.body.get("status_comments") {
        None | Some(Value::Null) => None,
        Some(Value::String(s)) => Some(s.clone()),
        Some(_) => {
            return Err(ApiError::field(
                "status_comments",
                "invalid_value",
                "`status_comments` must be a string",
            ));
        }
    };
    let changes = if action == "cancel" {
        if doc.get("applied_by_id").and_then(Value::as_i64) != Some(caller) {
            return Err(ApiError::new(
                403,
                "forbidden",
                "Only the person who raised the request may cancel it",
            ));
        }
        if status != "pending" && status != "approved" {
            return Err(ApiError::field(
                "status",
                "invalid_transition",
                format!("A {status} time-off cannot be cancelled"),
            ));
        }
        json!({"status": "cancelled", "cancelled_at": now, "cancelled_by_id": caller,
               "status_comments": comments.map_or(doc.get("status_comments").cloned().unwrap_or(Value::Null), Value::String)})
    } else {
        require(call, APPROVER_ROLES, "approving time-offs")?;
        if status != "pending" {
            return Err(ApiError::field(
                "status",
                "invalid_transition",
                format!("Only a pending time-off can be approved; this one is {status}"),
            ));
        }
        json!({"status": "approved", "approved_by_id": caller})
    };
    if let (Some(object), Value::Object(changes)) = (doc.as_object_mut(), changes) {
        object.extend(changes);
        object.insert("updated_at".into(), Value::String(now));
    }
    store.update(TIME_OFFS, id, &doc)?;
    // The cancel and approve answers carry the related objects too.
    let person =
        |attribute: &str| employee_model(&store, doc.get(attribute).and_then(Value::as_i64));
    let leave_type = match doc.get("leave_type_id").and_then(Value::as_i64) {
        Some(type_id) => store.get(TIME_OFF_TYPES, type_id)?.unwrap_or(Value::Null),
        None => Value::Null,
    };
    let extra = json!({
        "attachment": null,
        "leave_type": leave_type,
        "applied_by": person("applied_by_id")?,
        "approved_by": person("approved_by_id")?,
        "rejected_by": person("rejected_by_id")?,
        "cancelled_by": person("cancelled_by_id")?,
        "user": person("user_id")?,
    });
    if let (Some(object), Value::Object(extra)) = (doc.as_object_mut(), extra) {
        object.extend(extra);
    }
    Ok(Reply::ok(doc))
}

#[cfg(test)]
mod table {
    use super::*;

    /// The routes serve exactly the document's methods on its paths, as the linter's rules
    /// read them from the same table.
    #[test]
    fn routes_are_the_documents_endpoint_table() {
        for path in hr_service::paths() {
            let concrete = path.replace(hr_service::ID_SEGMENT, "7");
            let segments: Vec<&str> = concrete[1..].split('/').collect();
            let route = route(&segments).unwrap_or_else(|| panic!("{path} is routed"));
            let documented: Vec<&str> = hr_service::OPERATIONS
                .iter()
                .filter(|operation| operation.path == path)
                .map(|operation| operation.method)
                .collect();
            assert_eq!(route.methods, documented.as_slice(), "{path}");
        }
        // The one route the table has not: roles, "not shown" by the document.
        assert!(route(&["api", "roles"]).is_some());
    }
}
