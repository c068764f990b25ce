//! `unused-suppression`: a suppression comment names a rule that found nothing on its line, or
//! a name that is no rule.

use crate::diagnostic::{Diagnostic, Severity};
use crate::rules::framework::{Area, Check, Examples, Rule, Suppressions};
use crate::suggest;

pub static RULE: Rule = Rule {
    name: "unused-suppression",
    severity: Severity::Warning,
    area: Area::App,
    summary: "A suppression comment (`iparams-lint-ignore-next-line RULE`) suppresses nothing, or names no rule",
    docs: r#"A comment `// iparams-lint-ignore-next-line RULE[, RULE…]` (or `/* … */`) in the
app's JavaScript (config/assets/, the front end, server/, a page's scripts), or
`<!-- iparams-lint-ignore-next-line RULE -->` in an HTML page, turns off the named rules' findings
on the line after the comment. It names rules, not groups (`secrets`): a suppression says which
finding it expects. Text after ` -- ` is a reason, for readers. iparams.json has no comments: its
findings are turned off in the configuration (`[rules]`, and `[overrides]` by path, or path and
JSON pointer).

A suppression outlives the code it was written for: once the line is fixed, or moved, the comment
would hide the next finding there unseen. Reported here:

- a name whose rule runs and found nothing on the next line;
- a name that is no rule of iparams-lint (a typo, a rule renamed), with the closest rule's name.

A name whose rule is turned off is not reported: the configuration, not the code, says whether it
runs."#,
    bad: r#"=== manifest.json ===
{"platform-version": "2.3", "product": {"freshdesk": {"events": {"onTicketCreate": {"handler": "onTicketCreateHandler"}}}}}
=== config/iparams.json ===
{
  "api_key": {"display_name": "API key", "type": "text", "secure": true}
}
=== server/server.js ===
exports = {
  onTicketCreateHandler: function (args) {
    // iparams-lint-ignore-next-line secure-iparam-logged
    console.log(`Calling the API (key set: ${Boolean(args.iparams.api_key)})`);
  }
};
"#,
    good: r#"=== manifest.json ===
{"platform-version": "2.3", "product": {"freshdesk": {"events": {"onTicketCreate": {"handler": "onTicketCreateHandler"}}}}}
=== config/iparams.json ===
{
  "api_key": {"display_name": "API key", "type": "text", "secure": true}
}
=== server/server.js ===
exports = {
  onTicketCreateHandler: function (args) {
    console.log(`Calling the API (key set: ${Boolean(args.iparams.api_key)})`);
  }
};
"#,
    examples: Examples::App,
    vendor: "Not checked: suppression comments are iparams-lint's.",
    fix: None,
    checks: &[Check::Suppressions(check)],
};

fn check(suppressions: &Suppressions<'_>, found: &mut Vec<Diagnostic>) {
    for comment in suppressions.comments {
        for name in &comment.names {
            let rule = suppressions
                .rules
                .iter()
                .find(|rule| rule.name == name.name);
            let (message, label, help) = match rule {
                Some(rule) if name.used || !(suppressions.runs)(rule) => continue,
                Some(_) => (
                    format!(
                        "The suppression of `{}` suppresses nothing: the rule found nothing on \
                         the next line",
                        name.name
                    ),
                    "nothing to suppress",
                    "Remove the name (the comment with its last name): left there, it would hide \
                     the next finding of the rule on that line unseen."
                        .to_owned(),
                ),
                None => (
                    format!(
                        "`{}` is not a rule of iparams-lint",
                        suggest::shortened(&name.name)
                    ),
                    "unknown rule",
                    unknown_help(&name.name, suppressions.rules),
                ),
            };
            let mut diagnostic = Diagnostic::new(RULE.name, RULE.severity, name.span, message);
            diagnostic.label(label).help(help);
            found.push(diagnostic);
        }
    }
}

/// What to write instead of `name`, which is no rule.
fn unknown_help(name: &str, rules: &[&Rule]) -> String {
    if let Some(area) = Area::named(name) {
        return format!(
            "`{}` is a group of rules: a suppression names the rules themselves (`iparams-lint \
             rules` lists them by group).",
            area.name()
        );
    }
    match suggest::closest(name, rules.iter().map(|rule| rule.name)) {
        Some(rule) => format!("Did you mean `{rule}`?"),
        None => "A suppression names rules: `iparams-lint rules` lists them.".to_owned(),
    }
}
