//! `unknown-data-bind`: a data-bind value the platform does not fill.

use std::borrow::Cow;
use std::sync::LazyLock;

use crate::diagnostic::{Applicability, Edit, Fix, Severity};
use crate::edits::json_string;
use crate::model::{Attribute, DATA_BIND_VALUES, Iparam, Text};
use crate::rules::{Area, Check, Context, Examples, Rule};
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
    checks: &[Check::Iparam(check)],
};

/// How many characters of an unknown data-bind value a message may quote: real apps paste
/// tokens there by mistake, so a long value is cut to a short piece.
const PIECE: usize = 16;

/// An unknown data-bind value as a message quotes it: not at all when it is not shaped like a
/// name (it may be a token), cut to a short piece when long.
fn quoted_piece(iparam: &Iparam<'_, '_>, value: &Text<'_>) -> String {
    if iparam.masks(value) {
        return format!(
            "{MASKED} ({} characters, not shown: not a name, perhaps a pasted token)",
            value.text.chars().count()
        );
    }
    if value.text.chars().count() <= PIECE + 4 {
        return json_string(value.text);
    }
    let piece: String = value.text.chars().take(PIECE).collect();
    let quoted = json_string(&piece);
    let open = quoted.strip_suffix('"').unwrap_or(&quoted);
    format!("{open}…\" ({} characters)", value.text.chars().count())
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
    let known = || DATA_BIND_VALUES.iter().map(|(name, _)| *name);
    if known().any(|name| name == value.text) {
        return;
    }
    let exact = known().find(|name| name.eq_ignore_ascii_case(value.text.trim()));
    let values: &'static str = &VALUES;
    let help = match exact.or_else(|| suggest::closest_in(value.text, &DATA_BIND_VALUES, known())) {
        Some(name) => Cow::Owned(["Did you mean \"", name, "\"? ", values].concat()),
        None => Cow::Borrowed(values),
    };
    let diagnostic = cx
        .report(
            &RULE,
            value.span,
            format!(
                "Iparam `{}` binds to an unknown value {}",
                iparam.key.text,
                quoted_piece(iparam, &value)
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
