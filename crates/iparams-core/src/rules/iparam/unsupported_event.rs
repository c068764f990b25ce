//! `unsupported-event`: an event other than `change`.

use crate::diagnostic::{Applicability, Edit, Fix, Severity};
use crate::model::{Attribute, CHANGE_EVENT, Iparam};
use crate::rules::framework::{Area, Check, Context, Examples, Rule};

pub static RULE: Rule = Rule {
    name: "unsupported-event",
    severity: Severity::Error,
    area: Area::Events,
    summary: "An iparam handles an event other than `change`",
    docs: r#"The installation page fires one event per iparam, `change`, when the value is
entered or modified; no other event name (`blur`, `click`, `onChange`) is ever fired. Spellings of
`change` such as `onChange` or `Change` are corrected by the fix."#,
    bad: r#"{
  "domain": {"display_name": "Domain", "type": "text", "events": [{"blur": "checkDomain"}]}
}
"#,
    good: r#"{
  "domain": {"display_name": "Domain", "type": "text", "events": [{"change": "checkDomain"}]}
}
"#,
    examples: Examples::Iparams,
    vendor: "Rejects: `The <events> event is not supported in the '<key>' field`",
    fix: Some(Applicability::Safe),
    checks: &[Check::Iparam(check)],
};

fn check(iparam: &Iparam<'_, '_>, cx: &mut Context<'_>) {
    for pair in iparam.event_pairs() {
        let event = &pair.key;
        if event.text == CHANGE_EVENT {
            continue;
        }
        let normalised = event.text.to_lowercase().replace(['_', '-'], "");
        let means_change = matches!(
            normalised.as_str(),
            "change" | "onchange" | "changed" | "input" | "oninput"
        );
        let help = if means_change {
            "The installation page fires `change` whenever the value is entered or modified: write \"change\"."
        } else {
            "Only `change` is fired, when the value is entered or modified. To act when the page loads, define \
             `onFormLoad()` in config/assets/iparams.js."
        };
        let index = iparam
            .get(Attribute::Events)
            .and_then(|m| m.value.as_array())
            .unwrap_or_default()
            .iter()
            .position(|e| e.span.contains(event.span))
            .unwrap_or_default();
        let diagnostic = cx
            .report(
                &RULE,
                event.span,
                format!(
                    "Event `{}` of iparam `{}` is not supported",
                    event.text, iparam.key.text
                ),
            )
            .label("only `change` is fired")
            .help(help)
            .pointer(iparam.pointer_to(&[
                Attribute::Events.name(),
                &index.to_string(),
                &event.text,
            ]));
        if means_change {
            diagnostic.fix(Fix::safe(
                "Rename the event to \"change\"",
                vec![Edit::replace(event.span, "\"change\"")],
            ));
        }
    }
}
