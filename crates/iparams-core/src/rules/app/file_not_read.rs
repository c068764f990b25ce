//! `file-not-read`: a script of the app too large for the rules to read.

use crate::app::{AppModel, MAX_SCRIPT_BYTES};
use crate::diagnostic::Severity;
use crate::rules::framework::{AppContext, Area, Check, Examples, Rule};

pub static RULE: Rule = Rule {
    name: "file-not-read",
    severity: Severity::Info,
    area: Area::App,
    summary: "A script of the app is over 2 MB, and no rule reads it",
    docs: r#"Rules follow the app's own code: its `client.iparams.get()` reads, the templates it
invokes, the credentials written in it. A script over 2 MB is almost always a bundle or a library
(a build's output, a vendored copy of a framework), and reading it would cost more than every
other file of the app together, so it is left unread. This note says so, naming the file and its
size, so that nothing is skipped silently: an iparam read only there may show as `unused-iparam`,
and a secret committed there is not found.

A custom installation page (config/iparams.html) is always read whole, however large: bundled
pages are real, and the app's iparams come from them. Keep the sources a bundle is built from in
the app (they are checked), or the bundle out of the app's folder; turn this note off in the
configuration when the bundle is meant to be there."#,
    bad: r#"=== manifest.json ===
{"platform-version": "2.3", "product": {"freshdesk": {}}}
=== config/iparams.json ===
{}
=== app/scripts/vendor.bundle.js ===
(3 MB of minified libraries and app code)
"#,
    good: r#"=== manifest.json ===
{"platform-version": "2.3", "product": {"freshdesk": {}}}
=== config/iparams.json ===
{}
=== app/scripts/app.js ===
(the app's own code, which the bundle is built from)
"#,
    examples: Examples::Described,
    vendor: "Not checked: `fdk validate` reads no script for iparams.",
    fix: None,
    checks: &[Check::App(check)],
};

fn check(model: &AppModel<'_>, cx: &mut AppContext) {
    let limit = megabytes(MAX_SCRIPT_BYTES);
    for file in model.unread {
        cx.report_unread(
            file.relative,
            &RULE,
            format!(
                "{} is not read: at {} it is over the {limit} a script may have for the rules to read it",
                file.path,
                megabytes(file.size)
            ),
        )
        .label("not read")
        .help(
            "A script this large is a bundle or a library: its iparam reads, invoked templates \
             and written credentials are not checked. Keep the sources it is built from in the \
             app, or the bundle out of the app's folder.",
        );
    }
}

/// `size` bytes in megabytes (MiB, as file managers count), to one decimal.
fn megabytes(size: usize) -> String {
    let megabytes = size as f64 / (1024.0 * 1024.0);
    format!("{megabytes:.1} MB")
}

#[cfg(test)]
mod tests {
    use super::megabytes;

    #[test]
    fn sizes_read_in_megabytes() {
        assert_eq!(megabytes(2 * 1024 * 1024), "2.0 MB");
        assert_eq!(megabytes(3_500_000), "3.3 MB");
    }
}
