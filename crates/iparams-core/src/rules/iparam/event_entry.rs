//! `invalid-event-entry`: an entry of `events` that is not one `{event: handler}` pair.

use crate::diagnostic::Severity;
use crate::model::{Attribute, Iparam};
use crate::rules::framework::{Area, Check, Context, Examples, Rule};
use crate::rules::helpers::describe;

pub static RULE: Rule = Rule {
    name: "invalid-event-entry",
    severity: Severity::Error,
    area: Area::Events,
    summary: r#"An entry of `events` is not one `{"change": "handlerName"}` pair"#,
    docs: r#"`events` is an array of objects, each with exactly one pair: the event name,
`change`, and the name of the callback function (a string) defined in config/assets/iparams.js. An
empty object does nothing; an object with several pairs should be split into one object per pair."#,
    bad: r#"{
  "domain": {"display_name": "Domain", "type": "text", "events": ["checkDomain"]}
}
"#,
    good: r#"{
  "domain": {"display_name": "Domain", "type": "text", "events": [{"change": "checkDomain"}]}
}
"#,
    examples: Examples::Iparams,
    vendor: "Not checked: entries that are not objects are ignored, or crash the validator.",
    fix: None,
    checks: &[Check::Iparam(check)],
};

fn check(iparam: &Iparam<'_, '_>, cx: &mut Context<'_>) {
    let Some(entries) = iparam
        .get(Attribute::Events)
        .and_then(|m| m.value.as_array())
    else {
        return;
    };
    let key = &iparam.key.text;
    for (index, entry) in entries.iter().enumerate() {
        let pointer = iparam.pointer_to(&[Attribute::Events.name(), &index.to_string()]);
        let Some(pairs) = entry.as_object() else {
            let help = match entry.as_str() {
                Some(name) => format!("Name the event: `{{\"change\": \"{name}\"}}`."),
                None => "Write `{\"change\": \"handlerName\"}`.".to_owned(),
            };
            let found = describe(cx, iparam, entry);
            cx.report(
                &RULE,
                entry.span,
                format!("Event entry {index} of iparam `{key}` is {found}, not an object"),
            )
            .label("expected {\"change\": \"handlerName\"}")
            .help(help)
            .pointer(pointer);
            continue;
        };
        match pairs {
            [] => {
                cx.report(
                    &RULE,
                    entry.span,
                    format!("Event entry {index} of iparam `{key}` is empty"),
                )
                .label("no event")
                .help("Write `{\"change\": \"handlerName\"}`, or remove the entry.")
                .pointer(pointer);
            }
            [_] => {}
            [_, extra, ..] => {
                cx.report(&RULE, extra.key.span, format!("Event entry {index} of iparam `{key}` has {} pairs", pairs.len()))
                    .label("a second pair")
                    .help("Each entry holds one `{event: handler}` pair: split it into one object per pair.")
                    .pointer(pointer);
            }
        }
        for pair in pairs.iter().filter(|pair| pair.value.as_str().is_none()) {
            let found = describe(cx, iparam, &pair.value);
            cx.report(&RULE, pair.value.span, format!("Handler of event `{}` in iparam `{key}` is {found}, not a function name", pair.key.text))
                .label("expected a function name")
                .help("Write the name of the callback function as a string, and define the function in config/assets/iparams.js.")
                .pointer(iparam.pointer_to(&[Attribute::Events.name(), &index.to_string(), &pair.key.text]));
        }
    }
}
