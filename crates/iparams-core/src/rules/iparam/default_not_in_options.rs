//! `default-not-in-options`: a preselected value that is not a choice.

use std::cell::OnceCell;

use crate::diagnostic::{Applicability, Edit, Fix, Severity};
use crate::edits::json_string;
use crate::fast_hash::FastHashMap;
use crate::model::{Attribute, DefaultValue, Iparam, Text};
use crate::positions::Positions;
use crate::rules::framework::{Area, Check, Context, Examples, Rule};
use crate::rules::helpers::subject;
use crate::suggest;

pub static RULE: Rule = Rule {
    name: "default-not-in-options",
    severity: Severity::Error,
    area: Area::Defaults,
    summary: "`default_value` is not one of the iparam's options",
    docs: r#"The default of a dropdown or radio must be one of its `options`, and every element
of a multiselect's default must be. Options are compared exactly, case included. When the default
differs from an option only in case, the fix uses the option."#,
    bad: r#"{
  "priority": {"display_name": "Priority", "type": "dropdown", "options": ["Low", "High"], "default_value": "Urgent"}
}
"#,
    good: r#"{
  "priority": {"display_name": "Priority", "type": "dropdown", "options": ["Low", "High"], "default_value": "High"}
}
"#,
    examples: Examples::Iparams,
    vendor: r#"Rejects: `The default value specified for the '<key>' <type> type is not listed in
the options.`"#,
    fix: Some(Applicability::Safe),
    checks: &[Check::Iparam(check)],
};

fn check(iparam: &Iparam<'_, '_>, cx: &mut Context<'_>) {
    let Some(options) = iparam.options.as_deref().filter(|o| !o.is_empty()) else {
        return;
    };
    match &iparam.default {
        DefaultValue::Text(text) if iparam.known_type().is_some_and(|ty| ty.has_options()) => {
            report_if_missing(iparam, &Options::new(options), text, None, cx);
        }
        DefaultValue::List(_, array) => {
            let elements = array.as_array().unwrap_or_default();
            let options = Options::new(options);
            for (index, element) in elements.iter().enumerate() {
                if let Some(item) = Text::of(element) {
                    report_if_missing(iparam, &options, &item, Some(index), cx);
                }
            }
        }
        _ => {}
    }
}

/// The options, as a multiselect's default is looked up in them item by item (both lists can
/// be long).
struct Options<'o, 'a> {
    all: &'o [Text<'a>],
    exact: Positions<'o, Text<'a>>,
    /// Options by their ASCII lower case; made for the first value that is not an option.
    by_case: OnceCell<FastHashMap<String, Vec<&'o Text<'a>>>>,
    /// The options as a help lists them, each once; made for the first value that is not an
    /// option, as every other such value's help lists them alike.
    listed: OnceCell<String>,
}

impl<'o, 'a> Options<'o, 'a> {
    fn new(all: &'o [Text<'a>]) -> Self {
        Self {
            all,
            exact: Positions::new(all, |option| Some(option.text)),
            by_case: OnceCell::new(),
            listed: OnceCell::new(),
        }
    }

    fn listed(&self) -> &str {
        self.listed.get_or_init(|| {
            suggest::quoted_list(suggest::distinct(self.all.iter().map(|o| o.text)))
        })
    }

    fn contains(&self, value: &str) -> bool {
        self.exact.first(value).is_some()
    }

    /// The options equal to `value` but for ASCII case.
    fn same_but_case(&self, value: &str) -> &[&'o Text<'a>] {
        let by_case = self.by_case.get_or_init(|| {
            let mut by_case: FastHashMap<String, Vec<&'o Text<'a>>> = FastHashMap::default();
            for option in self.all {
                by_case
                    .entry(option.text.to_ascii_lowercase())
                    .or_default()
                    .push(option);
            }
            by_case
        });
        by_case
            .get(&value.to_ascii_lowercase())
            .map_or(&[], Vec::as_slice)
    }
}

fn report_if_missing(
    iparam: &Iparam<'_, '_>,
    options: &Options<'_, '_>,
    value: &Text<'_>,
    index: Option<usize>,
    cx: &mut Context<'_>,
) {
    if options.contains(value.text) {
        return;
    }
    let same_but_case = options.same_but_case(value.text);
    let listed = options.listed();
    let near = suggest::closest(value.text, options.all.iter().map(|o| o.text));
    let help = match near {
        Some(option) => format!("Did you mean \"{option}\"? The options are {listed}."),
        None => format!(
            "Use one of {listed}, or add {} to `options`.",
            iparam.quote(value)
        ),
    };
    let diagnostic = cx
        .report(
            &RULE,
            value.span,
            format!(
                "Default {} of {} is not one of its options",
                iparam.quote(value),
                subject(iparam)
            ),
        )
        .label("not an option")
        .help(help)
        .pointer(match index {
            Some(index) => iparam.pointer_to(&[Attribute::DefaultValue.name(), &index.to_string()]),
            None => iparam.pointer_of(Attribute::DefaultValue),
        });
    if let [option] = same_but_case {
        diagnostic.fix(Fix::safe(
            format!("Use the option \"{}\"", option.text),
            vec![Edit::replace(value.span, json_string(option.text))],
        ));
    }
}
