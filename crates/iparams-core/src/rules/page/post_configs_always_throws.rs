//! `post-configs-always-throws`: a page's `postConfigs` that throws on every call, so INSTALL
//! can never store the values.

use crate::app::always_throws::Unreadable;
use crate::app::page_functions::{Body, PageFunctionName};
use crate::app::{AppModel, InstallPage, Resource, Run};
use crate::diagnostic::Severity;
use crate::rules::framework::{AppContext, Area, Check, Examples, Rule};

pub static RULE: Rule = Rule {
    name: "post-configs-always-throws",
    severity: Severity::Error,
    area: Area::Page,
    summary: "the page's `postConfigs` reads a name that throws on every call",
    docs: r#"INSTALL stores what the page's `postConfigs()` returns; when it throws, nothing is
stored and the app cannot be installed. Two mistakes make it throw on every call, whatever the
installer entered:

- a `let`, `const` or `class` of the function read before its declaration has run (the
  temporal dead zone): `const email = email.value`, where `email` was meant to be the field;
- a name that nothing declares: not a variable of the page's scripts, not a global the browser
  defines, not an element the page gives that `id` or `name`.

Only reads that run on every call are judged (not in a branch, after `&&`, in a callback or
under `typeof`), and a name is taken as declared nowhere only when every script the page runs
was read (a script from another host, or one the app lacks, may define anything) and the name
appears nowhere else in the page and its scripts."#,
    bad: r#"=== manifest.json ===
{"platform-version": "2.3", "product": {"freshdesk": {}}}
=== config/iparams.html ===
<html><head><script src="{{{appclient}}}"></script></head>
<body><input id="email-field">
<script>
function postConfigs() {
  const email = email.value;
  return { email: email };
}
function getConfigs(configs) {
  document.getElementById("email-field").value = configs.email;
}
</script></body></html>
"#,
    good: r#"=== manifest.json ===
{"platform-version": "2.3", "product": {"freshdesk": {}}}
=== config/iparams.html ===
<html><head><script src="{{{appclient}}}"></script></head>
<body><input id="email-field">
<script>
function postConfigs() {
  const email = document.getElementById("email-field").value;
  return { email: email };
}
function getConfigs(configs) {
  document.getElementById("email-field").value = configs.email;
}
</script></body></html>
"#,
    examples: Examples::App,
    vendor: "Not checked; INSTALL fails at run time.",
    fix: None,
    checks: &[Check::App(check)],
};

fn check(model: &AppModel<'_>, cx: &mut AppContext) {
    let Some(page) = super::page(model) else {
        return;
    };
    let Some((file, function)) = page.function(PageFunctionName::PostConfigs) else {
        return;
    };
    let Body::PostConfigs(stored) = &function.body else {
        return;
    };
    // One finding: the first read that throws is the one the installer meets.
    let Some(read) = stored.throws.iter().find(|read| match read.unreadable {
        Unreadable::BeforeDeclaration { .. } => true,
        Unreadable::Undeclared { references } => {
            !is_browser_global(&read.name) && declared_nowhere(model, page, &read.name, references)
        }
    }) else {
        return;
    };
    match read.unreadable {
        Unreadable::BeforeDeclaration { declared } => {
            cx.report(file, &RULE, read.span, format!("`postConfigs` reads `{}` before its declaration has run, so it throws a ReferenceError on every call and INSTALL never stores the values", read.name))
                .label("read before it is declared")
                .help(format!(
                    "`{}` is declared on line {} of this function, and cannot be read until that declaration has run (the temporal dead zone). Read what was meant (the field: `document.getElementById(\"…\").value`), or give the variable another name.",
                    read.name,
                    model.text(file)[..declared.start].matches('\n').count() + 1,
                ));
        }
        Unreadable::Undeclared { .. } => {
            cx.report(file, &RULE, read.span, format!("`postConfigs` reads `{}`, which nothing on the page declares, so it throws a ReferenceError on every call and INSTALL never stores the values", read.name))
                .label("declared nowhere")
                .help(format!(
                    "Declare `{}`, or read what was meant (a field: `document.getElementById(\"…\").value`).",
                    read.name
                ));
        }
    }
}

/// Whether `name`, which the script of `postConfigs` reads or writes `references` times as a
/// global, is declared by nothing the page runs: every script the page runs was read, and
/// the name is written nowhere else, in the page (an element's `id` or `name`, another inline
/// script) or a script it loads.
fn declared_nowhere(
    model: &AppModel<'_>,
    page: &InstallPage,
    name: &str,
    references: usize,
) -> bool {
    if !super::scripts_read(model, page) {
        return false;
    }
    let mut loaded = Vec::new();
    for run in &page.runs {
        match run {
            Run::Inline(_) => {}
            Run::Loaded {
                resource: Resource::AppClient,
                ..
            } => {}
            Run::Loaded {
                resource: Resource::Local(_),
                file: Some(loaded_file),
                ..
            } => loaded.push(*loaded_file),
            Run::Loaded { .. } => return false,
        }
    }
    let mut texts = loaded;
    if !texts.contains(&page.file) {
        texts.push(page.file);
    }
    let written: usize = texts.iter().map(|id| words(model.text(*id), name)).sum();
    // The script's own reads of the global are all there is of the name.
    written <= references
}

/// How many times `word` is written in `text` as a whole identifier.
fn words(text: &str, word: &str) -> usize {
    let part = |c: char| c.is_alphanumeric() || c == '_' || c == '$';
    text.match_indices(word)
        .filter(|(at, _)| {
            let before = text[..*at].chars().next_back();
            let after = text[at + word.len()..].chars().next();
            !before.is_some_and(part) && !after.is_some_and(part)
        })
        .count()
}

/// The lowercase globals of a browser page (and of the code bundlers leave in: `require`,
/// `module`), sorted.
const GLOBALS: &[&str] = &[
    "addEventListener",
    "alert",
    "app",
    "arguments",
    "atob",
    "blur",
    "btoa",
    "caches",
    "cancelAnimationFrame",
    "clearInterval",
    "clearTimeout",
    "close",
    "closed",
    "confirm",
    "console",
    "createImageBitmap",
    "crypto",
    "customElements",
    "decodeURI",
    "decodeURIComponent",
    "define",
    "devicePixelRatio",
    "dispatchEvent",
    "document",
    "encodeURI",
    "encodeURIComponent",
    "escape",
    "eval",
    "event",
    "exports",
    "external",
    "fetch",
    "find",
    "focus",
    "frameElement",
    "frames",
    "getComputedStyle",
    "getSelection",
    "global",
    "globalThis",
    "history",
    "indexedDB",
    "innerHeight",
    "innerWidth",
    "isFinite",
    "isNaN",
    "isSecureContext",
    "length",
    "localStorage",
    "location",
    "locationbar",
    "matchMedia",
    "menubar",
    "module",
    "moveBy",
    "moveTo",
    "name",
    "navigator",
    "open",
    "opener",
    "origin",
    "outerHeight",
    "outerWidth",
    "pageXOffset",
    "pageYOffset",
    "parent",
    "parseFloat",
    "parseInt",
    "performance",
    "personalbar",
    "postMessage",
    "print",
    "process",
    "prompt",
    "queueMicrotask",
    "removeEventListener",
    "reportError",
    "requestAnimationFrame",
    "requestIdleCallback",
    "require",
    "resizeBy",
    "resizeTo",
    "screen",
    "screenLeft",
    "screenTop",
    "screenX",
    "screenY",
    "scroll",
    "scrollBy",
    "scrollTo",
    "scrollX",
    "scrollY",
    "scrollbars",
    "self",
    "sessionStorage",
    "setInterval",
    "setTimeout",
    "speechSynthesis",
    "status",
    "statusbar",
    "stop",
    "structuredClone",
    "toolbar",
    "top",
    "undefined",
    "unescape",
    "visualViewport",
    "window",
];

/// Globals a browser page has without declaring them, besides the constructors and
/// namespaces (every capitalised name is taken as one) and event handlers (`on…`).
fn is_browser_global(name: &str) -> bool {
    name.starts_with(|c: char| c.is_uppercase() || c == '_' || c == '$')
        || name.starts_with("on")
        || name.starts_with("webkit")
        || name.starts_with("moz")
        || GLOBALS.binary_search(&name).is_ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn browser_globals_are_sorted_and_found() {
        assert!(GLOBALS.windows(2).all(|pair| pair[0] < pair[1]));
        for name in [
            "document",
            "window",
            "Intl",
            "$",
            "onload",
            "setTimeout",
            "app",
        ] {
            assert!(is_browser_global(name), "{name}");
        }
        for name in ["email", "apiKey", "form"] {
            assert!(!is_browser_global(name), "{name}");
        }
    }

    #[test]
    fn whole_words_only() {
        assert_eq!(words("email emails e_email email.value $email", "email"), 2);
    }
}
