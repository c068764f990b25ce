//! Rule documentation, generated from the rule registry: `rules`, `explain`, docs/rules.md and
//! the README's list of rules by area.

use iparams_core::rules::{Area, Check};
use iparams_core::{Applicability, LineIndex, REGISTRY, Rule, rules};

fn fix_label(rule: &Rule) -> &'static str {
    match rule.fix {
        None => "no",
        Some(Applicability::Safe) => "safe",
        Some(Applicability::Unsafe) => "unsafe",
    }
}

/// Where a rule's documentation is read online: its section of docs/rules.md.
pub fn rule_url(name: &str) -> String {
    format!("{}#{name}", docs_url!("rules.md"))
}

/// The registry's rules, area by area, in the order the docs present them.
fn by_area() -> impl Iterator<Item = (Area, impl Iterator<Item = &'static &'static Rule>)> {
    Area::ALL.into_iter().map(|area| {
        let rules = REGISTRY.iter().filter(move |rule| rule.area == area);
        (area, rules)
    })
}

/// `iparams-lint rules`: one line per rule, under the title of its area and the name of its
/// group (what `--select` takes).
pub fn rules_table() -> String {
    let width = REGISTRY
        .iter()
        .map(|rule| rule.name.len())
        .max()
        .unwrap_or(0);
    let mut out = format!(
        "{:width$}  {:8}  {:6}  SUMMARY\n",
        "RULE", "SEVERITY", "FIX"
    );
    for (area, rules) in by_area() {
        out.push_str(&format!("\n{} (group: {})\n", area.title(), area.name()));
        for rule in rules {
            out.push_str(&format!(
                "{:width$}  {:8}  {:6}  {}\n",
                rule.name,
                rule.severity.as_str(),
                fix_label(rule),
                rule.summary
            ));
        }
    }
    out.push_str(&format!(
        "\n{} rules. `iparams-lint explain RULE` shows one in full; `--select` and `--ignore` take\nnames of rules and of groups.\n",
        REGISTRY.len()
    ));
    out
}

/// `iparams-lint rules --format json`: every rule, in the registry's order, with what the
/// other listings show of it.
pub fn rules_json() -> String {
    let rules: Vec<serde_json::Value> = REGISTRY
        .iter()
        .map(|rule| {
            serde_json::json!({
                "name": rule.name,
                "severity": rule.severity.as_str(),
                "area": rule.area.title(),
                "group": rule.area.name(),
                "fix": fix_label(rule),
                "summary": rule.summary,
                "docs": rule.docs(),
                "vendor": rule.vendor(),
                "url": rule_url(rule.name),
            })
        })
        .collect();
    let mut out = serde_json::to_string_pretty(&rules).unwrap_or_default();
    out.push('\n');
    out
}

/// `iparams-lint explain RULE`.
pub fn explain(name: &str) -> Result<String, String> {
    let rule = rules::resolve(name).map_err(|suggestion| match suggestion {
        Some(suggestion) => format!("there is no rule `{name}`; did you mean `{suggestion}`?"),
        None => format!("there is no rule `{name}`; `iparams-lint rules` lists them"),
    })?;
    let fix = match rule.fix {
        None => "no fix".to_owned(),
        Some(applicability) => format!("{} fix", fix_label_of(applicability)),
    };
    let (definitions, fixed, kind) = match rule.example_definitions() {
        None => (String::new(), String::new(), ""),
        Some((bad, good)) => (
            format!("With this iparams.json:\n{}\n", indent(bad)),
            if good == bad {
                String::new()
            } else {
                format!("Once iparams.json reads:\n{}\n", indent(good))
            },
            " (values file)",
        ),
    };
    Ok(format!(
        "{} ({}, {fix})\n{}\n\n{}\n\n{definitions}Fails{kind}:\n{}\nReported as:\n{}\n{fixed}Passes{kind}:\n{}\nThe vendor's validator: {}\n\nOnline: {}\n",
        rule.name,
        rule.severity,
        rule.summary,
        rule.docs(),
        indent(rule.bad),
        indent(&example_findings(rule)),
        indent(rule.good),
        rule.vendor(),
        rule_url(rule.name)
    ))
}

fn fix_label_of(applicability: Applicability) -> &'static str {
    match applicability {
        Applicability::Safe => "safe",
        Applicability::Unsafe => "unsafe",
    }
}

/// The rule's own findings on its failing example, one line each (with the file, for an app).
fn example_findings(rule: &Rule) -> String {
    if rule.needs_network() {
        return "(by `iparams-lint values --verify`, from the service's answer: not run here)\n"
            .to_owned();
    }
    if !rule.examples_run() {
        return "(on the app it describes, too large to write out here: not run)\n".to_owned();
    }
    let checked = iparams_core::Linter::default().check_example(rule, false);
    let multi_file = checked.len() > 1;
    let mut out = String::new();
    for file in &checked {
        let text = file.source.text();
        let lines = LineIndex::new(text);
        for d in file
            .report
            .diagnostics
            .iter()
            .filter(|d| d.rule == rule.name)
        {
            let at = lines.position(text, d.span.start);
            let place = if multi_file {
                format!("{}:", file.path)
            } else {
                String::new()
            };
            out.push_str(&format!(
                "{place}{}:{}: {}[{}] {}\n",
                at.line, at.column, d.severity, d.rule, d.message
            ));
        }
    }
    out
}

fn indent(text: &str) -> String {
    text.lines().map(|line| format!("    {line}\n")).collect()
}

/// One rule's documentation in Markdown, under a heading of `level`.
pub fn rule_markdown(rule: &Rule, level: usize) -> String {
    let hashes = "#".repeat(level);
    let (definitions, fixed, kind) = match rule.example_definitions() {
        None => (String::new(), String::new(), ""),
        Some((bad, good)) => (
            format!("With this `config/iparams.json`:\n\n```json\n{bad}```\n\n"),
            if good == bad {
                String::new()
            } else {
                format!("Once `config/iparams.json` reads:\n\n```json\n{good}```\n\n")
            },
            " (values file)",
        ),
    };
    let language = if rule.needs_app() { "text" } else { "json" };
    format!(
        "{hashes} `{}`\n\n{}\n\n**Default severity:** {} · **Fix:** {}\n\n{}\n\n{definitions}Fails{kind}:\n\n```{language}\n{}```\n\n{fixed}Passes{kind}:\n\n```{language}\n{}```\n\n**The vendor's validator:** {}\n",
        rule.name,
        rule.summary,
        rule.severity,
        fix_label(rule),
        rule.docs(),
        rule.bad.replace('\u{feff}', ""),
        rule.good,
        rule.vendor()
    )
}

/// The whole of docs/rules.md.
pub fn rules_markdown() -> String {
    let mut out = String::from(
        "# Rules\n\nGenerated from the rule registry by `iparams-lint rules --markdown > docs/rules.md`; a test fails when \
         this file is out of date, so edit the rule files in `crates/iparams-core/src/rules/` instead.\n\n\
         Severities can be changed, and findings silenced, in `.iparams-lint.toml` (see the README).\n",
    );
    for (area, rules) in by_area() {
        out.push_str(&format!(
            "\n**{}**\n\n| Rule | Severity | Fix | Summary |\n|---|---|---|---|\n",
            area.title()
        ));
        for rule in rules {
            out.push_str(&format!(
                "| [`{}`](#{}) | {} | {} | {} |\n",
                rule.name,
                rule.name,
                rule.severity,
                fix_label(rule),
                rule.summary.replace('|', "\\|")
            ));
        }
    }
    for rule in REGISTRY {
        out.push('\n');
        out.push_str(&rule_markdown(rule, 2));
    }
    out
}

/// The README's summary of the rules: how many, and their names by area (a test keeps the
/// README's copy, between its `rules` markers, the same).
pub fn readme_rules_section() -> String {
    let mut text = format!(
        "{} rules, each with what it checks, why, an example that fails and its fix, and what the \
         vendor's\nvalidator does in the same case: see [docs/rules.md](docs/rules.md) (generated \
         from the rules) or\n`iparams-lint explain RULE`. Their names appear in every finding, as \
         `error[rule-name]`.\n\n| Area | Rules |\n|---|---|\n",
        REGISTRY.len()
    );
    let names = |rules: &mut dyn Iterator<Item = &&Rule>| {
        rules
            .map(|rule| format!("`{}`", rule.name))
            .collect::<Vec<_>>()
            .join(", ")
    };
    for (area, mut in_area) in by_area() {
        let mut row = format!("| {} | {}", area.title(), names(&mut in_area));
        if area == Area::Values {
            // The rules of any JSON file apply to values files too.
            let mut shared = REGISTRY.iter().filter(|rule| {
                rule.area == Area::File
                    && rule
                        .checks
                        .iter()
                        .any(|check| matches!(check, Check::Reading(_) | Check::Values(_)))
            });
            row.push_str(&format!(
                " (and {} for the values file itself)",
                names(&mut shared)
            ));
        }
        text.push_str(&row);
        text.push_str(" |\n");
    }
    text
}

/// docs/hr-sandbox.md's reference: what `hr-sandbox` serves, generated from the service's
/// document as data (`iparams_core::app::hr_service`, which the sandbox serves) and the
/// sandbox's own limits and seed, so the page and the server cannot disagree.
pub fn hr_service_markdown() -> String {
    use iparams_core::app::hr_service as hr;
    use std::fmt::Write;

    let mut out = String::new();
    let cell = |text: &str| text.replace('|', "\\|");
    out.push_str("### Endpoints\n\n");
    out.push_str("| Method | Path | What it does | Who may call it | Success answer |\n");
    out.push_str("|---|---|---|---|---|\n");
    for op in &hr::OPERATIONS {
        let _ = writeln!(
            out,
            "| {} | `{}` | {} | {} | {} |",
            op.method,
            op.path,
            op.does,
            cell(
                op.roles
                    .unwrap_or("not said by the document; see the choices below")
            ),
            cell(op.answer)
        );
    }
    out.push_str(
        "| GET | `/api/roles` | list the roles (not in the document) | \
         not said by the document; see the choices below | 200, an array of role objects |\n",
    );

    out.push_str("\n### Query parameters\n\n");
    // The lists that take only the pagination parameters share one table, at the first.
    let mut tabled: Vec<(*const hr::Filter, &str)> = Vec::new();
    for op in hr::OPERATIONS.iter().filter(|op| !op.query.is_empty()) {
        let _ = write!(out, "`{} {}`", op.method, op.path);
        if let Some((_, first)) = tabled.iter().find(|(query, _)| *query == op.query.as_ptr()) {
            let _ = write!(out, ": the same as `GET {first}`.\n\n");
            continue;
        }
        tabled.push((op.query.as_ptr(), op.path));
        out.push_str(":\n\n| Parameter | Value | Meaning |\n|---|---|---|\n");
        for filter in op.query {
            let _ = writeln!(
                out,
                "| `{}` | {} | {} |",
                filter.name,
                cell(&filter.format.described()),
                cell(filter.meaning)
            );
        }
        out.push('\n');
    }
    let _ = writeln!(out, "Names `include` takes: {}.\n", quoted(&hr::EMBEDDED));
    out.push_str("Filter combinations of the employee list that always answer 200 `[]`:\n\n");
    for combination in hr::ALWAYS_EMPTY {
        let pairs: Vec<String> = combination
            .iter()
            .map(|(name, value)| format!("`{name}={value}`"))
            .collect();
        let _ = writeln!(out, "- {}", pairs.join(" with "));
    }

    out.push_str("\n### Bodies\n\n");
    for op in &hr::OPERATIONS {
        let Some(body) = op.body else { continue };
        if op.method == "PUT" && op.path == "/api/employees/{id}" {
            out.push_str(
                "`PUT /api/employees/{id}`: the attributes of the employee's create body, none \
                 required.\n\n",
            );
            continue;
        }
        let _ = writeln!(
            out,
            "`{} {}`:\n\n| Attribute | Type | Required | Values |\n|---|---|---|---|",
            op.method, op.path
        );
        for field in body.fields {
            let values = if !field.values.is_empty() {
                quoted(field.values)
            } else if let Some((min, max)) = field.length {
                format!("{min} to {max} characters")
            } else {
                String::new()
            };
            let _ = writeln!(
                out,
                "| `{}` | {} | {} | {} |",
                field.name,
                body_type(field.ty),
                if field.required && body.enforce_required {
                    "yes"
                } else {
                    "no"
                },
                values
            );
        }
        out.push('\n');
    }
    let _ = writeln!(
        out,
        "Inside an employee: each `work_numbers` entry's `name` is one of {}, each \
         `phone_numbers` entry's one of {} (with a string `number`); `address` holds {}, each \
         {} to {} characters.",
        quoted(&hr::WORK_NUMBER_NAMES),
        quoted(&hr::PHONE_NUMBER_NAMES),
        quoted(&hr::ADDRESS_PARTS),
        hr::ADDRESS_PART_LENGTH.0,
        hr::ADDRESS_PART_LENGTH.1
    );

    out.push_str("\n### Roles and keys\n\n| Role id | Role |\n|---|---|\n");
    for (id, name) in iparams_sandbox::ROLE_NAMES {
        let _ = writeln!(out, "| {id} | {name} |");
    }
    out.push_str(
        "\nThe seeded employees that have API keys, and their roles (the first line's `tokens` \
         gives every key but `admin`'s):\n\n\
         | Key | Roles |\n|---|---|\n",
    );
    for (key, roles) in iparams_sandbox::KEYED_USERS {
        let names: Vec<&str> = roles
            .iter()
            .filter_map(|id| {
                iparams_sandbox::ROLE_NAMES
                    .iter()
                    .find(|(role, _)| role == id)
                    .map(|(_, name)| *name)
            })
            .collect();
        let _ = writeln!(out, "| `{key}` | {} |", names.join(", "));
    }

    out.push_str("\n### Limits\n\n| Plan | Calls a minute, per account |\n|---|---|\n");
    for plan in hr::PLANS {
        let _ = writeln!(out, "| {} | {} |", plan.name, plan.calls_per_minute);
    }
    let _ = write!(
        out,
        "\n- Lists page by {} objects; no page-size parameter.\n\
         - `location` takes at most {} branch ids.\n\
         - Request bodies: {} KiB at most (413 beyond), `Content-Type: {}` (415 otherwise).\n\
         - `Accept` must allow JSON: {} (406 otherwise), or be absent.\n",
        hr::PAGE_SIZE,
        iparams_sandbox::MAX_LOCATIONS,
        iparams_sandbox::MAX_BODY_BYTES / 1024,
        hr::BODY_TYPE,
        quoted(&hr::ACCEPTABLE)
    );
    out
}

fn quoted(values: &[&str]) -> String {
    let quoted: Vec<String> = values.iter().map(|value| format!("`{value}`")).collect();
    quoted.join(", ")
}

fn body_type(ty: iparams_core::app::hr_service::BodyType) -> &'static str {
    use iparams_core::app::hr_service::BodyType;
    match ty {
        BodyType::String => "string",
        BodyType::Integer => "integer",
        BodyType::Boolean => "boolean",
        BodyType::Date => "date `YYYY-MM-DD`",
        BodyType::Object => "object",
        BodyType::Array => "array",
    }
}
