//! `hidden-required`: a field the installer must fill but cannot see.

use crate::diagnostic::Severity;
use crate::model::{Attribute, DefaultValue, Iparam};
use crate::rules::framework::{Area, Check, Context, Examples, FileCheck, Rule, same_check};
use crate::span::Span;

pub static RULE: Rule = Rule {
    name: "hidden-required",
    severity: Severity::Error,
    area: Area::Installation,
    summary: "A required iparam is hidden and has no default, so the app can never be installed",
    docs: r#"An iparam with `"visible": false` is not shown on the installation page, so nobody
can fill it; if it is also `"required": true` with no `default_value` and no `data-bind`, the page
never accepts INSTALL. Give it a default, show it, or make it optional.

Within an app, a field that a callback of config/assets/iparams.js shows or fills with
`utils.set(key, {visible: ...})` or `{value: ...}` is not reported. A file checked on its own,
outside its app, is not reported when any of its iparams has a `change` event, since a callback
might do so."#,
    bad: r#"{
  "tenant": {"display_name": "Tenant", "type": "text", "required": true, "visible": false}
}
"#,
    good: r#"{
  "tenant": {"display_name": "Tenant", "type": "text", "required": true, "visible": false, "default_value": "main"}
}
"#,
    examples: Examples::Iparams,
    vendor: "Not checked.",
    fix: None,
    checks: &[Check::File(|| Box::<HiddenRequired>::default())],
};

#[derive(Default)]
struct HiddenRequired {
    candidates: Vec<(String, Span, String)>,
    has_events: bool,
}

impl FileCheck for HiddenRequired {
    fn iparam(&mut self, iparam: &Iparam<'_, '_>, _cx: &mut Context<'_>) {
        self.has_events |= iparam.event_pairs().next().is_some();
        let no_default = match &iparam.default {
            DefaultValue::Absent => true,
            DefaultValue::Text(text) => text.text.is_empty(),
            DefaultValue::List(items, _) => items.is_empty(),
            _ => false,
        };
        if iparam.flag(Attribute::Visible) == Some(false)
            && iparam.flag(Attribute::Required) == Some(true)
            && no_default
            && iparam.get(Attribute::DataBind).is_none()
        {
            self.candidates.push((
                iparam.key.text.to_string(),
                iparam.key.span,
                iparam.pointer(),
            ));
        }
    }

    fn append(&mut self, later: Box<dyn FileCheck>) {
        let later = same_check::<Self>(later);
        self.has_events |= later.has_events;
        self.candidates.extend(later.candidates);
    }

    fn finish(&mut self, cx: &mut Context<'_>) {
        // Within an app, the callbacks were read: a field they show or fill is not stuck.
        // Checked on its own, a file with callbacks might show any field.
        let revealed = match cx.app() {
            Some(app) => Some(&app.revealed),
            None if self.has_events => return,
            None => None,
        };
        self.candidates
            .retain(|(key, ..)| !revealed.is_some_and(|keys| keys.contains(key)));
        for (key, span, pointer) in &self.candidates {
            cx.report(&RULE, *span, format!("Iparam `{key}` is required but hidden and has no default: the app cannot be installed"))
                .label("required, hidden, empty")
                .help("Nobody can fill a hidden field, so INSTALL stays blocked. Give it a `default_value`, make it visible, or make it optional.")
                .pointer(pointer);
        }
    }
}
