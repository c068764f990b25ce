//! `unknown-iparam-read`: code that reads an iparam that does not exist.

use crate::app::{AppModel, FileId, Read};
use crate::diagnostic::Severity;
use crate::rules::framework::{AppContext, Area, Check, Examples, Rule};
use crate::suggest;

pub static RULE: Rule = Rule {
    name: "unknown-iparam-read",
    severity: Severity::Error,
    area: Area::App,
    summary: "The app reads an iparam that iparams.json does not define",
    docs: r#"Front-end code reads iparams with `client.iparams.get("key")` (or a property of the object
`client.iparams.get()` gives whole: `const ip = await client.iparams.get(); ip.key`, `.then(p =>
p.key)`, `const { key } = …`), serverless code with
`args.iparams.key`, and request templates (and the strings given to the request API of platforms
before 2.3, `client.request.get(url, options)`) with `<%= iparam.key %>`. A key that iparams.json does not
define rejects the front end's promise, gives `undefined` to serverless code, and leaves a template
empty — after the app is installed, where nobody sees it fail."#,
    bad: r#"=== manifest.json ===
{"platform-version": "2.3", "product": {"freshdesk": {}}}
=== config/iparams.json ===
{
  "region": {"display_name": "Region", "type": "text"}
}
=== app/scripts/app.js ===
client.iparams.get("regoin").then(show);
"#,
    good: r#"=== manifest.json ===
{"platform-version": "2.3", "product": {"freshdesk": {}}}
=== config/iparams.json ===
{
  "region": {"display_name": "Region", "type": "text"}
}
=== app/scripts/app.js ===
client.iparams.get("region").then(show);
"#,
    examples: Examples::App,
    vendor: "Not checked.",
    fix: None,
    checks: &[Check::App(check)],
};

fn check(model: &AppModel<'_>, cx: &mut AppContext) {
    if !model.iparams_complete {
        return;
    }
    let scripts = model.readers().flat_map(|(file, facts)| {
        [
            (*file, facts.reads.as_slice()),
            (*file, facts.request_reads.as_slice()),
        ]
    });
    let install_page = model.install_page().flat_map(|(file, facts)| {
        [
            (*file, facts.reads.as_slice()),
            (*file, facts.request_reads.as_slice()),
        ]
    });
    let templates = model
        .templates
        .iter()
        .map(|(file, reads)| (*file, reads.as_slice()));
    let reads: Vec<(FileId, &[Read])> = scripts.chain(install_page).chain(templates).collect();
    for (file, reads) in reads {
        for read in reads
            .iter()
            .filter(|read| model.declared(&read.key).is_none())
        {
            let key = &read.key;
            let help = match suggest::closest(key, model.declared.iter().map(|d| d.key.as_str())) {
                Some(meant) => format!(
                    "Did you mean `{meant}` ({})?",
                    model.defined_at(
                        model
                            .declared(meant)
                            .map(|d| d.key_span)
                            .unwrap_or_default()
                    )
                ),
                None => model.defined_iparams(),
            };
            let finding = cx
                .report(
                    file,
                    &RULE,
                    read.span,
                    format!(
                        "`{key}` is read here, but {} defines no such iparam",
                        model.definitions_name()
                    ),
                )
                .label("no such iparam")
                .help(help);
            if let Some(pointer) = model.pointer_at(file, read.span) {
                finding.pointer(pointer);
            }
        }
    }
}
