//! `unknown-data-bind`: a data-bind value the platform does not fill.

use std::borrow::Cow;
use std::sync::LazyLock;

use crate::app::AppModel;
use crate::diagnostic::{Applicability, Edit, Fix, Severity};
use crate::edits::json_string;
use crate::model::{Attribute, DATA_BIND_VALUES, Iparam, looks_like_a_data_bind_name};
use crate::rules::framework::{AppContext, Area, Check, Context, Examples, Rule};
use crate::secrets::MASKED;
use crate::suggest;

pub static RULE: Rule = Rule {
    name: "unknown-data-bind",
    severity: Severity::Error,
    area: Area::DataBind,
    summary: "`data-bind` names an account value the platform does not provide",
    docs: r#"`data-bind` pre-fills an iparam from the account the app is installed on. The values
are `product.domain` (every platform), and `product.api_key` and `product.url` (platform 3.x, where
secrets are text iparams; platform 2.x apps use `product.api_key` on `api_key` iparams too). Any
other value fills nothing. A value that differs from a known one only in case is corrected by the
fix.

The same values hold for the `data-bind` attributes of a custom installation page's inputs
(config/iparams.html, `<input data-bind="product.api_key">`), which are checked too (without a
fix there).

Real apps sometimes paste a token here by mistake: an unknown value is shown only when it reads
as a name (dotted words, such as `product.subdomain`), and then only its first 16 characters when
it is long; any other value is masked in every output."#,
    bad: r#"{
  "domain": {"display_name": "Domain", "type": "text", "data-bind": "product.subdomain"}
}
"#,
    good: r#"{
  "domain": {"display_name": "Domain", "type": "text", "data-bind": "product.domain"}
}
"#,
    examples: Examples::Iparams,
    vendor: "Not checked.",
    fix: Some(Applicability::Safe),
    checks: &[Check::Iparam(check), Check::App(check_page)],
};

/// How many characters of an unknown data-bind value a message may quote: real apps paste
/// tokens there by mistake, so a long value is cut to a short piece.
const PIECE: usize = 16;

/// An unknown data-bind value as a message quotes it: not at all when it is not shaped like a
/// name (it may be a token), cut to a short piece when long.
fn quoted_piece(value: &str, masked: bool) -> String {
    if masked {
        return format!(
            "{MASKED} ({} characters, not shown: not a name, perhaps a pasted token)",
            value.chars().count()
        );
    }
    if value.chars().count() <= PIECE + 4 {
        return json_string(value);
    }
    let piece: String = value.chars().take(PIECE).collect();
    let quoted = json_string(&piece);
    let open = quoted.strip_suffix('"').unwrap_or(&quoted);
    format!("{open}…\" ({} characters)", value.chars().count())
}

fn known() -> impl Iterator<Item = &'static str> {
    DATA_BIND_VALUES.iter().map(|(name, _)| *name)
}

/// The known value `value` differs from only in case or spaces, and the help: that value or the
/// closest one, and the list.
fn meant(value: &str) -> (Option<&'static str>, Cow<'static, str>) {
    let exact = known().find(|name| name.eq_ignore_ascii_case(value.trim()));
    let values: &'static str = &VALUES;
    let help = match exact.or_else(|| suggest::closest_in(value, &DATA_BIND_VALUES, known())) {
        Some(name) => Cow::Owned(["Did you mean \"", name, "\"? ", values].concat()),
        None => Cow::Borrowed(values),
    };
    (exact, help)
}

/// The values a `data-bind` may have, as the help lists them: the same for every finding.
static VALUES: LazyLock<String> = LazyLock::new(|| {
    let names = DATA_BIND_VALUES.iter().map(|(name, _)| *name);
    format!("The values are {}.", suggest::quoted_list(names))
});

fn check(iparam: &Iparam<'_, '_>, cx: &mut Context<'_>) {
    let Some(value) = iparam.string(Attribute::DataBind) else {
        return;
    };
    if known().any(|name| name == value.text) {
        return;
    }
    let (exact, help) = meant(value.text);
    let diagnostic = cx
        .report(
            &RULE,
            value.span,
            format!(
                "Iparam `{}` binds to an unknown value {}",
                iparam.key.text,
                quoted_piece(value.text, iparam.masks(&value))
            ),
        )
        .label("fills nothing")
        .help(help)
        .pointer(iparam.pointer_of(Attribute::DataBind));
    if let Some(name) = exact {
        diagnostic.fix(Fix::safe(
            format!("Write \"{name}\""),
            vec![Edit::replace(value.span, json_string(name))],
        ));
    }
}

/// The `data-bind` attributes of a custom installation page.
fn check_page(model: &AppModel<'_>, cx: &mut AppContext) {
    let Some(page) = model.page.as_ref() else {
        return;
    };
    for bind in &page.html.data_binds {
        if known().any(|name| name == bind.value) {
            continue;
        }
        let (_, help) = meant(&bind.value);
        let masked = !looks_like_a_data_bind_name(&bind.value);
        cx.report(
            page.file,
            &RULE,
            bind.span,
            format!(
                "The page binds a field to an unknown value {}",
                quoted_piece(&bind.value, masked)
            ),
        )
        .label("fills nothing")
        .help(help);
    }
}

#[cfg(test)]
mod tests {
    use crate::app::{AppInput, example_files};
    use crate::engine::Linter;
    use crate::rules::RuleSettings;

    #[test]
    fn a_custom_page_binds_known_values_only() {
        let app = r#"=== manifest.json ===
{"platform-version": "2.3", "product": {"freshdesk": {}}}
=== config/iparams.html ===
<input data-bind="product.api_key"><input data-bind="product.apikey">
<input data-bind="Tr0ub4dor&amp;3xYz9qLw">
"#;
        let files = example_files(app);
        let input = AppInput::from_example(&files).expect("an app");
        let checked = Linter::default()
            .check_app(&input, &RuleSettings::default())
            .files;
        let page = checked
            .iter()
            .find(|file| file.path == "config/iparams.html")
            .expect("the page");
        let found: Vec<_> = page
            .report
            .diagnostics
            .iter()
            .filter(|d| d.rule == "unknown-data-bind")
            .map(|d| (d.message.as_str(), d.help.as_deref().unwrap_or_default()))
            .collect();
        assert_eq!(found.len(), 2, "{found:?}");
        assert!(found[0].0.ends_with("\"product.apikey\""), "{found:?}");
        assert!(
            found[0].1.starts_with("Did you mean \"product.api_key\"?"),
            "{found:?}"
        );
        // Not a name: perhaps a pasted token, never shown, in the message or the page's frames.
        assert!(!found[1].0.contains("Tr0ub4dor"), "{found:?}");
        let text = page.source.text();
        assert!(!page.report.redact(text).contains("Tr0ub4dor"));
    }
}
