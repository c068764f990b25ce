//! The new iparam as the flags (or the answers typed at the prompts) describe it, each answer
//! checked on its own: its key, type and members, and the change callbacks it names.

use iparams_core::json_string;
use iparams_core::model::{CHANGE_EVENT, IparamType, REGEX_ERROR_SUFFIX};
use iparams_core::products::{CURRENT_PRODUCT, PRODUCT_NAMES};
use iparams_core::suggest;

use crate::cli::AddArgs;

/// What the new iparam is, every answer checked on its own.
pub(super) struct Answers {
    pub(super) key: String,
    pub(super) kind: IparamType,
    /// The members of the new iparam, in the order they are written: name, JSON.
    pub(super) fields: Vec<(&'static str, String)>,
    /// `fields` with a secure default masked, for what is printed.
    pub(super) shown_fields: Vec<(&'static str, String)>,
    /// Change callbacks to declare in iparams.js.
    pub(super) callbacks: Vec<String>,
}

/// The answers the flags give, each checked; `Err` names what is missing or wrong.
pub(super) fn answers(args: &AddArgs) -> Result<Answers, String> {
    let kind = match args.kind.as_deref() {
        Some(name) => Some(kind_of(name)?),
        None => None,
    };
    let missing = missing(args);
    let (Some(key), Some(kind), Some(display_name)) = (&args.key, kind, &args.display_name) else {
        return Err(missing_answers(&missing));
    };
    if !missing.is_empty() {
        return Err(missing_answers(&missing));
    }

    let string = |text: &str| json_string(text);
    let strings = |items: &[String]| {
        let quoted: Vec<String> = items.iter().map(|item| json_string(item)).collect();
        format!("[{}]", quoted.join(", "))
    };
    let mut fields: Vec<(&'static str, String)> = vec![("display_name", string(display_name))];
    if let Some(description) = &args.description {
        fields.push(("description", string(description)));
    }
    fields.push(("type", string(kind.name())));
    if let Some(options) = &args.options {
        let options: Vec<String> = options.iter().map(|o| o.trim().to_owned()).collect();
        fields.push(("options", strings(&options)));
    }
    let secure = args.secure || kind == IparamType::ApiKey;
    let mut shown_fields = Vec::new();
    if let Some(default) = &args.default {
        let value = match kind {
            IparamType::Checkbox => match default.trim() {
                "true" | "false" => default.trim().to_owned(),
                other => {
                    return Err(format!(
                        "--default {other:?}: a checkbox's default is `true` or `false`"
                    ));
                }
            },
            IparamType::Multiselect => {
                let chosen: Vec<String> = default
                    .split(',')
                    .map(|o| o.trim().to_owned())
                    .filter(|o| !o.is_empty())
                    .collect();
                strings(&chosen)
            }
            _ => string(default),
        };
        shown_fields = fields.clone();
        shown_fields.push((
            "default_value",
            if secure {
                string("********")
            } else {
                value.clone()
            },
        ));
        fields.push(("default_value", value));
    }
    let mut rest: Vec<(&'static str, String)> = Vec::new();
    if args.required {
        rest.push(("required", "true".to_owned()));
    }
    if secure {
        rest.push(("secure", "true".to_owned()));
    }
    if args.hidden {
        rest.push(("visible", "false".to_owned()));
    }
    if let Some(product) = &args.product {
        let product = product_of(product)?;
        rest.push((
            "type_attributes",
            format!("{{\"product\": {}}}", string(product)),
        ));
    }
    if let Some(regex) = regex_object(args)? {
        rest.push(("regex", regex));
    }
    let mut callbacks = Vec::new();
    if !args.event.is_empty() {
        let mut events = Vec::new();
        for event in &args.event {
            let (name, function) = event_of(event)?;
            events.push(format!("{{{}: {}}}", string(name), string(function)));
            callbacks.push(function.to_owned());
        }
        rest.push(("events", format!("[{}]", events.join(", "))));
    }
    if shown_fields.is_empty() {
        shown_fields = fields.clone();
    }
    fields.extend(rest.iter().cloned());
    shown_fields.extend(rest);
    Ok(Answers {
        key: key.clone(),
        kind,
        fields,
        shown_fields,
        callbacks,
    })
}

/// The flags still needed (a --type that is not a type counts as given: [`answers`] says why).
pub(super) fn missing(args: &AddArgs) -> Vec<&'static str> {
    let kind = args.kind.as_deref().and_then(IparamType::from_name);
    let mut missing = Vec::new();
    if args.key.is_none() {
        missing.push("--key KEY");
    }
    if args.kind.is_none() {
        missing.push("--type TYPE");
    }
    if args.display_name.is_none() {
        missing.push("--display-name LABEL");
    }
    if let Some(kind) = kind {
        if kind.has_options() && args.options.is_none() {
            missing.push("--options A,B,…");
        }
        if kind.has_product() && args.product.is_none() {
            missing.push("--product PRODUCT");
        }
    }
    missing
}

fn missing_answers(missing: &[&str]) -> String {
    format!(
        "missing answers (without a terminal, or with --no-input, every answer comes from flags): give {}",
        missing.join(", ")
    )
}

fn kind_of(name: &str) -> Result<IparamType, String> {
    IparamType::from_name(name).ok_or_else(|| {
        let hint = suggest::closest(name, IparamType::names())
            .map(|s| format!("did you mean `{s}`? "))
            .unwrap_or_default();
        format!(
            "--type {name:?} is not a type; {hint}the types are {}",
            suggest::quoted_list(IparamType::ALL.iter().map(|t| t.name()))
        )
    })
}

fn product_of(name: &str) -> Result<&str, String> {
    if name == CURRENT_PRODUCT || PRODUCT_NAMES.contains(&name) {
        return Ok(name);
    }
    let known: Vec<&str> = PRODUCT_NAMES
        .iter()
        .copied()
        .chain([CURRENT_PRODUCT])
        .collect();
    let hint = suggest::closest(name, known.iter().copied())
        .map(|s| format!("did you mean `{s}`? "))
        .unwrap_or_default();
    Err(format!(
        "--product {name:?} is not a product; {hint}the products are {}",
        suggest::quoted_list(known.iter().copied())
    ))
}

/// `{"NAME": "PATTERN", "NAME-error": "MESSAGE"}` from the paired `--regex` and `--regex-error`.
fn regex_object(args: &AddArgs) -> Result<Option<String>, String> {
    if args.regex.is_empty() && args.regex_error.is_empty() {
        return Ok(None);
    }
    let pairs = |flag: &str, given: &[String]| -> Result<Vec<(String, String)>, String> {
        given
            .iter()
            .map(|item| {
                item.split_once('=')
                    .map(|(name, value)| (name.trim().to_owned(), value.to_owned()))
                    .filter(|(name, _)| !name.is_empty())
                    .ok_or_else(|| format!("{flag} {item:?}: write it as NAME=VALUE"))
            })
            .collect()
    };
    let patterns = pairs("--regex", &args.regex)?;
    let messages = pairs("--regex-error", &args.regex_error)?;
    let mut entries = Vec::new();
    for (name, pattern) in &patterns {
        let Some((_, message)) = messages.iter().find(|(n, _)| n == name) else {
            return Err(format!(
                "--regex {name}=…: the message shown when it does not match is missing; add --regex-error {name}=MESSAGE"
            ));
        };
        entries.push(format!("{}: {}", json_string(name), json_string(pattern)));
        entries.push(format!(
            "{}: {}",
            json_string(&format!("{name}{REGEX_ERROR_SUFFIX}")),
            json_string(message)
        ));
    }
    if let Some((name, _)) = messages
        .iter()
        .find(|(name, _)| !patterns.iter().any(|(n, _)| n == name))
    {
        return Err(format!(
            "--regex-error {name}=…: there is no --regex {name}=PATTERN for it to explain"
        ));
    }
    Ok(Some(format!("{{{}}}", entries.join(", "))))
}

/// `change=FUNCTION`, checked.
fn event_of(event: &str) -> Result<(&str, &str), String> {
    let Some((name, function)) = event.split_once('=') else {
        return Err(format!(
            "--event {event:?}: write it as {CHANGE_EVENT}=FUNCTION"
        ));
    };
    if name != CHANGE_EVENT {
        return Err(format!(
            "--event {event:?}: the event {name:?} is not supported; the only event is `{CHANGE_EVENT}`"
        ));
    }
    let identifier = function
        .chars()
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_' || c == '$')
        && function
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '$');
    if !identifier {
        return Err(format!(
            "--event {event:?}: {function:?} is not a JavaScript function name; use letters, digits, `_` and `$`, not starting with a digit"
        ));
    }
    Ok((name, function))
}
