//! `add`'s questions on a terminal: whatever the flags did not say, each answer checked as it is
//! typed by inserting the iparam it makes into the file and running the linter on the result
//! ([`Draft::findings`]), so the prompts never hold a rule of their own.

use std::fmt;
use std::io::Write;

use inquire::validator::Validation;
use inquire::{Confirm, InquireError, MultiSelect, Select, Text};
use iparams_core::model::IparamType;
use iparams_core::products::{CURRENT_PRODUCT, PRODUCT_NAMES};
use iparams_core::rules::{as_identifier, is_identifier};
use iparams_core::secrets::read_key;
use iparams_core::{Diagnostic, Severity, suggest};

use super::draft::Draft;
use crate::cli::AddArgs;

/// The user stopped the questions (Esc, Ctrl-C) or the terminal failed: why.
pub struct Stopped(pub String);

impl From<InquireError> for Stopped {
    fn from(error: InquireError) -> Self {
        Stopped(match error {
            InquireError::OperationCanceled => "stopped (Esc)".to_owned(),
            InquireError::OperationInterrupted => "interrupted (Ctrl-C)".to_owned(),
            other => format!("cannot ask on this terminal: {other}"),
        })
    }
}

/// Which answer a question is about: the findings it must answer for.
#[derive(Clone, Copy)]
enum Field {
    Key,
    DisplayName,
    Description,
    Options,
    Product,
    Regex,
    Default,
    Callback,
}

impl Field {
    /// Whether `finding` (about the new iparam, whose pointer is `at`) is this answer's doing.
    fn owns(self, finding: &Diagnostic, at: &str) -> bool {
        let under = |member: &str| {
            let pointer = format!("{at}/{member}");
            finding.pointer == pointer || finding.pointer.starts_with(&format!("{pointer}/"))
        };
        match self {
            // The rules about the key itself: others report at the iparam too (missing-default),
            // and the warnings on a key name a secret, which `fill` offers to make secure.
            Field::Key => {
                finding.pointer == at
                    && finding.severity == Severity::Error
                    && KEY_RULES.contains(&finding.rule)
            }
            Field::DisplayName => under("display_name"),
            Field::Description => under("description"),
            Field::Options => under("options"),
            Field::Product => under("type_attributes"),
            Field::Regex => under("regex"),
            Field::Default => {
                under("default_value")
                    || matches!(finding.rule, "missing-default" | "hidden-required")
            }
            Field::Callback => under("events"),
        }
    }
}

/// The rules whose errors at an iparam's pointer are about its key.
const KEY_RULES: [&str; 3] = ["empty-key", "reserved-key", "duplicate-key"];

/// Asks for every answer `args` lacks, into `args`.
pub fn fill(args: &mut AddArgs, draft: &Draft<'_>, stderr: &mut dyn Write) -> Result<(), Stopped> {
    if args.key.is_none() {
        let base = args.clone();
        let key = Text::new("Key:")
            .with_help_message("how the app reads the value: client.iparams.get(\"key\")")
            .with_validator(|input: &str| {
                let key = input.trim();
                let mut candidate = base.clone();
                candidate.key = Some(key.to_owned());
                let refusal = draft
                    .existing(key)
                    .or_else(|| check(draft, &candidate, Field::Key).err())
                    .or_else(|| not_identifier(key));
                Ok(validation(refusal))
            })
            .prompt()?;
        args.key = Some(key.trim().to_owned());
    }
    let key = args.key.clone().unwrap_or_default();

    if args.kind.is_none() {
        let choices: Vec<TypeChoice> = IparamType::ALL.into_iter().map(TypeChoice).collect();
        let chosen = Select::new("Type:", choices)
            .with_help_message(
                "↑↓ to move, type to filter (did-you-mean when nothing matches), enter to choose",
            )
            .with_scorer(&score_type)
            .with_page_size(13)
            .prompt()?;
        args.kind = Some(chosen.0.name().to_owned());
    }
    let Some(kind) = args.kind.as_deref().and_then(IparamType::from_name) else {
        // An unknown --type: `answers` explains it, with its did-you-mean.
        return Ok(());
    };

    // A key named like a secret, on a type that can hold one: offer `secure`.
    if !args.secure
        && kind != IparamType::ApiKey
        && matches!(kind, IparamType::Text | IparamType::Paragraph)
        && read_key(&key).0.is_word()
    {
        args.secure = Confirm::new(&format!("`{key}` is named like a secret: make it secure?"))
            .with_default(true)
            .with_help_message(
                "a secure value is kept from the app's front end, usable only in request templates",
            )
            .prompt()?;
    }

    if args.display_name.is_none() {
        let label = ask_text(
            draft,
            args,
            Field::DisplayName,
            "Label (display name):",
            "the field's name on the installation page",
            |candidate, answer| candidate.display_name = Some(answer.to_owned()),
        )?;
        args.display_name = Some(label);
    }

    if args.description.is_none() {
        let description = ask_text(
            draft,
            args,
            Field::Description,
            "Description (empty: none):",
            "the help text under the field",
            |candidate, answer| {
                candidate.description = Some(answer.to_owned()).filter(|a| !a.is_empty());
            },
        )?;
        args.description = Some(description).filter(|d| !d.is_empty());
    }

    if kind.has_options() && args.options.is_none() {
        let options = ask_text(
            draft,
            args,
            Field::Options,
            "Options, separated by commas:",
            "the choices, in the order shown: red, green, blue",
            |candidate, answer| candidate.options = Some(split_options(answer)),
        )?;
        args.options = Some(split_options(&options));
    }

    if kind.has_product() && args.product.is_none() {
        let products: Vec<ProductChoice> = PRODUCT_NAMES
            .iter()
            .copied()
            .chain([CURRENT_PRODUCT])
            .map(ProductChoice)
            .collect();
        loop {
            let chosen = Select::new("Product:", products.clone())
                .with_help_message("the product account it belongs to; type to filter")
                .with_scorer(&score_product)
                .prompt()?;
            let mut candidate = args.clone();
            candidate.product = Some(chosen.0.to_owned());
            match check(draft, &candidate, Field::Product) {
                Ok(()) => {
                    args.product = candidate.product;
                    break;
                }
                Err(refusal) => say(stderr, &refusal),
            }
        }
    }

    if kind.accepts_regex() && args.regex.is_empty() && args.regex_error.is_empty() {
        let base = args.clone();
        let regex = Text::new("Regex the value must match, as NAME=PATTERN (empty: none):")
            .with_help_message("JavaScript syntax, checked as the browser will: digits=^[0-9]+$")
            .with_validator(|input: &str| {
                if input.trim().is_empty() {
                    return Ok(Validation::Valid);
                }
                let mut candidate = base.clone();
                candidate.regex = vec![input.to_owned()];
                // The message comes next; a stand-in keeps it from being reported missing.
                if let Some((name, _)) = input.split_once('=') {
                    candidate.regex_error = vec![format!("{}=…", name.trim())];
                }
                Ok(validation(check(draft, &candidate, Field::Regex).err()))
            })
            .prompt()?;
        if let Some((name, _)) = regex.split_once('=') {
            let name = name.trim().to_owned();
            args.regex = vec![regex.clone()];
            let base = args.clone();
            let message = Text::new(&format!("Message shown when `{name}` does not match:"))
                .with_validator(|input: &str| {
                    if input.trim().is_empty() {
                        return Ok(Validation::Invalid(
                            "Write the message the installation page shows for a value that does not match".into(),
                        ));
                    }
                    let mut candidate = base.clone();
                    candidate.regex_error = vec![format!("{name}={input}")];
                    Ok(validation(check(draft, &candidate, Field::Regex).err()))
                })
                .prompt()?;
            args.regex_error = vec![format!("{name}={message}")];
        }
    }

    if !args.required && !args.hidden {
        args.required = Confirm::new("Required?")
            .with_default(false)
            .with_help_message("the installation page will not accept an empty value")
            .prompt()?;
    }

    // A secure value is kept out of the app's files: no default is asked for.
    let secure = args.secure || kind == IparamType::ApiKey;
    if args.default.is_none() && !secure {
        args.default = ask_default(draft, args, kind, stderr)?;
    }

    if args.event.is_empty() {
        let callback = ask_text(
            draft,
            args,
            Field::Callback,
            "Function to call on change (empty: none):",
            "a function of config/assets/iparams.js, added there when missing",
            |candidate, answer| {
                candidate.event = if answer.is_empty() {
                    Vec::new()
                } else {
                    vec![format!("change={answer}")]
                };
            },
        )?;
        if !callback.is_empty() {
            args.event = vec![format!("change={callback}")];
        }
    }
    Ok(())
}

/// Shows the JSON `add` will insert into `shown`, and asks whether to write it.
pub fn confirm(shown: &str, block: &str, stderr: &mut dyn Write) -> Result<bool, Stopped> {
    say(
        stderr,
        &format!("\nThe iparam to add to {shown}:\n\n{block}\n"),
    );
    Ok(Confirm::new(&format!("Add it to {shown}?"))
        .with_default(true)
        .prompt()?)
}

/// A text answer, refused with the linter's message while the iparam it makes has a finding
/// `field` owns; trimmed.
fn ask_text(
    draft: &Draft<'_>,
    args: &AddArgs,
    field: Field,
    question: &str,
    help: &str,
    set: impl Fn(&mut AddArgs, &str) + Clone,
) -> Result<String, Stopped> {
    let answer = Text::new(question)
        .with_help_message(help)
        .with_validator(|input: &str| {
            let mut candidate = args.clone();
            set(&mut candidate, input.trim());
            Ok(validation(check(draft, &candidate, field).err()))
        })
        .prompt()?;
    Ok(answer.trim().to_owned())
}

/// The default: chosen among the options (several for a multiselect), true or false for a
/// checkbox, typed for the rest; `None` for none.
fn ask_default(
    draft: &Draft<'_>,
    args: &AddArgs,
    kind: IparamType,
    stderr: &mut dyn Write,
) -> Result<Option<String>, Stopped> {
    const NONE: &str = "(no default)";
    let options = args.options.clone().unwrap_or_default();
    loop {
        let answer = match kind {
            IparamType::Multiselect => {
                let chosen = MultiSelect::new("Default (several allowed):", options.clone())
                    .with_help_message("↑↓ to move, space to select, enter to accept")
                    .prompt()?;
                Some(chosen.join(","))
            }
            _ if kind.has_options() => Some(
                Select::new("Default:", options.clone())
                    .with_help_message("the choice selected at installation")
                    .prompt()?,
            ),
            IparamType::Checkbox => {
                let chosen = Select::new("Default:", vec![NONE, "true", "false"]).prompt()?;
                (chosen != NONE).then(|| chosen.to_owned())
            }
            _ => {
                let answer = ask_text(
                    draft,
                    args,
                    Field::Default,
                    "Default value (empty: none):",
                    default_help(kind),
                    |candidate, answer| {
                        candidate.default = Some(answer.to_owned()).filter(|a| !a.is_empty());
                    },
                )?;
                return Ok(Some(answer).filter(|a| !a.is_empty()));
            }
        };
        let mut candidate = args.clone();
        candidate.default = answer.clone();
        match check(draft, &candidate, Field::Default) {
            Ok(()) => return Ok(answer),
            Err(refusal) => say(stderr, &refusal),
        }
    }
}

fn default_help(kind: IparamType) -> &'static str {
    match kind {
        IparamType::Date => "a date as YYYY-MM-DD",
        IparamType::Email => "an email address: support@example.com",
        IparamType::Url => "a full URL: https://example.com",
        IparamType::Number => "an integer",
        IparamType::PhoneNumber => "a phone number",
        _ => "what the field holds before anyone types",
    }
}

/// `Ok` when the linter has nothing about `field` to say on the iparam `candidate` makes (its
/// other answers filled with stand-ins); else its message, with its help.
fn check(draft: &Draft<'_>, candidate: &AddArgs, field: Field) -> Result<(), String> {
    let candidate = with_stand_ins(candidate);
    let key = candidate.key.clone().unwrap_or_default();
    let at = format!("/{}", key.replace('~', "~0").replace('/', "~1"));
    let findings = draft.findings(&candidate)?;
    match findings.iter().find(|finding| {
        matches!(finding.severity, Severity::Error | Severity::Warning) && field.owns(finding, &at)
    }) {
        None => Ok(()),
        Some(finding) => Err(match &finding.help {
            Some(help) => format!("{}. {help}", finding.message),
            None => finding.message.clone(),
        }),
    }
}

/// `args` with a stand-in for each answer not given yet, so that the iparam is complete; the
/// findings on stand-ins belong to no question being asked ([`Field::owns`]).
fn with_stand_ins(args: &AddArgs) -> AddArgs {
    let mut args = args.clone();
    args.key.get_or_insert_with(|| "new_iparam".to_owned());
    let kind = args
        .kind
        .get_or_insert_with(|| IparamType::Text.name().to_owned());
    let kind = IparamType::from_name(kind);
    args.display_name
        .get_or_insert_with(|| "A label still to be asked".to_owned());
    if kind.is_some_and(IparamType::has_options) {
        args.options.get_or_insert_with(|| vec!["a".to_owned()]);
    }
    if kind.is_some_and(IparamType::has_product) {
        args.product
            .get_or_insert_with(|| CURRENT_PRODUCT.to_owned());
    }
    args
}

/// A key a request template cannot name: the linter's own test (`key-not-usable-in-templates`
/// reports it on secure iparams and in apps with templates); a new key is better without it.
fn not_identifier(key: &str) -> Option<String> {
    if key.is_empty() || is_identifier(key) {
        return None;
    }
    let suggestion = as_identifier(key);
    let example = if is_identifier(&suggestion) {
        format!(", for example `{suggestion}`")
    } else {
        String::new()
    };
    Some(format!(
        "`{key}` cannot be written in a request template (`<%= iparam.{key} %>` is read as JavaScript): use letters, digits, `_` and `$`, not starting with a digit and not a JavaScript word{example}"
    ))
}

fn validation(refusal: Option<String>) -> Validation {
    match refusal {
        None => Validation::Valid,
        Some(message) => Validation::Invalid(message.into()),
    }
}

fn split_options(answer: &str) -> Vec<String> {
    answer.split(',').map(|o| o.trim().to_owned()).collect()
}

fn say(stderr: &mut dyn Write, text: &str) {
    let _ = writeln!(stderr, "{text}");
}

/// A type in the list, with what it is for.
#[derive(Clone, Copy)]
struct TypeChoice(IparamType);

impl TypeChoice {
    fn blurb(self) -> &'static str {
        match self.0 {
            IparamType::Text => "one line of text",
            IparamType::Paragraph => "several lines of text",
            IparamType::Dropdown => "one choice from a drop-down list",
            IparamType::Email => "an email address",
            IparamType::Number => "an integer",
            IparamType::PhoneNumber => "a phone number",
            IparamType::Date => "a date (YYYY-MM-DD)",
            IparamType::Url => "a web address",
            IparamType::Radio => "one choice, shown as radio buttons",
            IparamType::Checkbox => "on or off (true or false)",
            IparamType::Multiselect => "several choices from a list",
            IparamType::Domain => "a product account's domain (needs a product)",
            IparamType::ApiKey => "a product account's API key (secure; needs a product)",
        }
    }
}

impl fmt::Display for TypeChoice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:<13}{}", self.0.name(), self.blurb())
    }
}

/// Typed text filters the types by name, then by description; a typed name that matches none
/// shows the type the linter's did-you-mean picks (`txt` → text).
fn score_type(input: &str, choice: &TypeChoice, _: &str, _: usize) -> Option<i64> {
    let input = input.trim().to_lowercase();
    let matches = |t: TypeChoice| t.0.name().contains(&input) || t.blurb().contains(&input);
    if matches(*choice) {
        return Some(if choice.0.name().starts_with(&input) {
            2
        } else {
            1
        });
    }
    let none_matches = !IparamType::ALL.into_iter().map(TypeChoice).any(matches);
    (none_matches && suggest::closest(&input, IparamType::names()) == Some(choice.0.name()))
        .then_some(0)
}

/// A product in the list.
#[derive(Clone, Copy)]
struct ProductChoice(&'static str);

impl fmt::Display for ProductChoice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0 == CURRENT_PRODUCT {
            write!(f, "{CURRENT_PRODUCT} (the product the app is installed on)")
        } else {
            f.write_str(self.0)
        }
    }
}

/// As [`score_type`], for products (`freshdsk` → freshdesk).
fn score_product(input: &str, choice: &ProductChoice, _: &str, _: usize) -> Option<i64> {
    let input = input.trim().to_lowercase();
    if choice.0.contains(&input) {
        return Some(i64::from(choice.0.starts_with(&input)));
    }
    let known = PRODUCT_NAMES.iter().copied().chain([CURRENT_PRODUCT]);
    let none_matches = !known.clone().any(|p| p.contains(&input));
    (none_matches && suggest::closest(&input, known) == Some(choice.0)).then_some(0)
}
