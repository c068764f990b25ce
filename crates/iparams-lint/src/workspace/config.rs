//! `.iparams-lint.toml`: rule severities, ignored files, and overrides for some files or for
//! one value of a file (JSON has no comments, so that is how one finding is silenced).
//!
//! ```toml
//! ignore = ["legacy/**"]
//!
//! [rules]
//! unanchored-regex = "off"
//! missing-default = "error"
//!
//! [overrides]
//! "apps/old-*/config/iparams.json" = { numeric-default = "off" }
//! "apps/hr/config/iparams.json#/monkey" = { vendor-secure-false-positive = "off" }
//! "**/config/iparams.json#/legacy_token" = { "*" = "off" }
//! ```

use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use globset::{Glob, GlobBuilder, GlobMatcher, GlobSet, GlobSetBuilder};
use iparams_core::fast_hash::FastHashMap;
use iparams_core::{Level, RuleSettings, Severity, rules};

/// The name of the file looked for in each checked file's folder and the folders above it.
pub const FILE_NAME: &str = ".iparams-lint.toml";

const KEYS: [&str; 3] = ["ignore", "rules", "overrides"];
const LEVELS: [&str; 4] = ["off", "info", "warning", "error"];
/// In an override, stands for every rule.
const ALL_RULES: &str = "*";

/// A configuration that cannot be used, with what to do about it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConfigError {
    pub path: PathBuf,
    pub message: String,
}

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.path.display(), self.message)
    }
}

/// A rule's level as set in a configuration: which rule (`None` for all) and its level.
type RuleLevel = (Option<&'static str>, Level);

#[derive(Debug)]
struct Override {
    files: GlobMatcher,
    pointer: Option<String>,
    levels: Vec<RuleLevel>,
}

/// One parsed configuration file.
#[derive(Debug)]
pub struct Config {
    pub path: PathBuf,
    /// The folder its globs are relative to.
    root: PathBuf,
    ignore: GlobSet,
    levels: Vec<RuleLevel>,
    overrides: Vec<Override>,
}

impl Config {
    pub fn load(path: &Path) -> Result<Self, ConfigError> {
        let text = crate::read::read_text(path).map_err(|error| ConfigError {
            path: path.to_owned(),
            message: format!("cannot read it: {error}"),
        })?;
        Self::parse(path, &text)
    }

    pub fn parse(path: &Path, text: &str) -> Result<Self, ConfigError> {
        let fail = |message: String| ConfigError {
            path: path.to_owned(),
            message,
        };
        let table: toml::Table =
            toml::from_str(text).map_err(|error| fail(describe_toml_error(text, &error)))?;
        let folder = path
            .parent()
            .filter(|p| !p.as_os_str().is_empty())
            .unwrap_or(Path::new("."));
        let root = absolute(folder);
        let mut config = Config {
            path: path.to_owned(),
            root,
            ignore: GlobSet::empty(),
            levels: Vec::new(),
            overrides: Vec::new(),
        };
        for (key, value) in &table {
            match key.as_str() {
                "ignore" => config.ignore = parse_ignore(value).map_err(fail)?,
                "rules" => config.levels = parse_levels(value, "[rules]", false).map_err(fail)?,
                "overrides" => config.overrides = parse_overrides(value).map_err(fail)?,
                other => return Err(fail(unknown_key(other, &KEYS, "at the top level"))),
            }
        }
        Ok(config)
    }

    /// Whether `file` is to be left unchecked.
    pub fn ignores(&self, file: &Path) -> bool {
        self.ignore.is_match(self.relative(file))
    }

    /// The rule levels for `file`: the configuration's, then its file overrides, then those of
    /// the command line, then its overrides for single values.
    pub fn settings(&self, file: &Path, command_line: &[RuleLevel]) -> RuleSettings {
        let relative = self.relative(file);
        let mut settings = RuleSettings::default();
        let file_overrides = self
            .overrides
            .iter()
            .filter(|o| o.pointer.is_none() && o.files.is_match(&relative));
        let levels = self
            .levels
            .iter()
            .chain(file_overrides.flat_map(|o| &o.levels))
            .chain(command_line);
        apply(&mut settings, levels);
        for pointed in self
            .overrides
            .iter()
            .filter(|o| o.files.is_match(&relative))
        {
            let Some(pointer) = &pointed.pointer else {
                continue;
            };
            for (rule, level) in &pointed.levels {
                settings
                    .set_at(pointer, *rule, *level)
                    .expect("rule names were checked when parsing");
            }
        }
        settings
    }

    /// `file` relative to the configuration's folder, when it is inside it.
    fn relative(&self, file: &Path) -> PathBuf {
        let file = absolute(file);
        file.strip_prefix(&self.root)
            .map(Path::to_owned)
            .unwrap_or(file)
    }
}

/// Where each file's rule levels come from: `--rule`, and a configuration file (the one given
/// with `--config`, or the nearest above the file, read once per folder).
#[derive(Debug, Clone)]
pub struct RuleSources {
    command_line: Vec<RuleLevel>,
    explicit: Option<Arc<Config>>,
    found: FastHashMap<PathBuf, Option<Arc<Config>>>,
}

impl RuleSources {
    /// Reads `--rule` (`rules`) and `--config` (`config`); `Err` says what is wrong with them.
    pub fn new(config: Option<&Path>, rules: &[String]) -> Result<Self, String> {
        let command_line = parse_command_line_rules(rules)?;
        let explicit = config
            .map(Config::load)
            .transpose()
            .map_err(|error| error.to_string())?
            .map(Arc::new);
        Ok(Self {
            command_line,
            explicit,
            found: FastHashMap::default(),
        })
    }

    /// The configuration that applies to `file`, if any.
    pub fn config_for(&mut self, file: &Path) -> Result<Option<Arc<Config>>, String> {
        if let Some(config) = &self.explicit {
            return Ok(Some(Arc::clone(config)));
        }
        let folder = file
            .parent()
            .filter(|p| !p.as_os_str().is_empty())
            .unwrap_or(Path::new("."));
        if let Some(config) = self.found.get(folder) {
            return Ok(config.clone());
        }
        let config = match find(folder) {
            None => None,
            Some(path) => Some(Arc::new(
                Config::load(&path).map_err(|error| error.to_string())?,
            )),
        };
        self.found.insert(folder.to_owned(), config.clone());
        Ok(config)
    }

    /// Forgets the configuration files found so far, so that each is read again.
    pub fn forget_found(&mut self) {
        self.found.clear();
    }

    /// The rule levels for `file` under `config`.
    pub fn settings(&self, config: Option<&Config>, file: &Path) -> RuleSettings {
        config.map_or_else(
            || settings_without_config(&self.command_line),
            |config| config.settings(file, &self.command_line),
        )
    }
}

/// Rule levels from the command line alone, when no configuration applies.
pub fn settings_without_config(command_line: &[RuleLevel]) -> RuleSettings {
    let mut settings = RuleSettings::default();
    apply(&mut settings, command_line.iter());
    settings
}

fn apply<'l>(settings: &mut RuleSettings, levels: impl Iterator<Item = &'l RuleLevel>) {
    for (rule, level) in levels {
        match rule {
            Some(name) => settings
                .set(name, *level)
                .expect("rule names were checked when parsing"),
            None => {
                for rule in rules::REGISTRY {
                    settings.set(rule.name, *level).expect("a registered rule");
                }
            }
        }
    }
}

/// `name=severity` arguments of `--rule`.
pub fn parse_command_line_rules(arguments: &[String]) -> Result<Vec<RuleLevel>, String> {
    arguments
        .iter()
        .map(|argument| {
            let (name, level) = argument.split_once('=').ok_or_else(|| {
                format!(
                    "--rule {argument}: write it as NAME=SEVERITY, such as unanchored-regex=off"
                )
            })?;
            let rule = rule_name(name.trim(), false)
                .map_err(|message| format!("--rule {argument}: {message}"))?;
            let level = parse_level(level.trim())
                .map_err(|message| format!("--rule {argument}: {message}"))?;
            Ok((rule, level))
        })
        .collect()
}

/// The nearest configuration file in `dir` or a folder above it.
pub fn find(dir: &Path) -> Option<PathBuf> {
    absolute(dir)
        .ancestors()
        .map(|folder| folder.join(FILE_NAME))
        .find(|candidate| candidate.is_file())
}

fn absolute(path: &Path) -> PathBuf {
    std::path::absolute(path).unwrap_or_else(|_| path.to_owned())
}

fn parse_ignore(value: &toml::Value) -> Result<GlobSet, String> {
    let patterns = value
        .as_array()
        .ok_or("`ignore` must be an array of globs, such as [\"legacy/**\"]")?;
    let mut set = GlobSetBuilder::new();
    for pattern in patterns {
        let pattern = pattern
            .as_str()
            .ok_or("each `ignore` entry must be a glob string")?;
        set.add(glob(pattern)?);
    }
    set.build().map_err(|error| error.to_string())
}

fn glob(pattern: &str) -> Result<Glob, String> {
    GlobBuilder::new(pattern)
        .literal_separator(true)
        .build()
        .map_err(|error| format!("`{pattern}` is not a valid glob: {error}"))
}

fn parse_levels(
    value: &toml::Value,
    section: &str,
    allow_all: bool,
) -> Result<Vec<RuleLevel>, String> {
    let table = value
        .as_table()
        .ok_or_else(|| format!("{section} must be a table of rule = \"severity\""))?;
    table
        .iter()
        .map(|(name, level)| {
            let rule =
                rule_name(name, allow_all).map_err(|message| format!("{section}: {message}"))?;
            let level = level.as_str().ok_or_else(|| {
                format!(
                    "{section}: the severity of {name} must be a string: one of {}",
                    LEVELS.join(", ")
                )
            })?;
            Ok((
                rule,
                parse_level(level).map_err(|message| format!("{section}: {name}: {message}"))?,
            ))
        })
        .collect()
}

fn parse_overrides(value: &toml::Value) -> Result<Vec<Override>, String> {
    let table = value.as_table().ok_or(
        "[overrides] must be a table of \"glob\" or \"glob#/pointer\" = { rule = \"severity\" }",
    )?;
    table
        .iter()
        .map(|(key, levels)| {
            let (files, pointer) = match key.split_once('#') {
                Some((files, pointer)) if pointer.is_empty() || pointer.starts_with('/') => (files, Some(pointer.to_owned())),
                Some(_) => return Err(format!("[overrides] \"{key}\": a JSON pointer starts with `/`, such as \"{}#/api_key\"", key.split('#').next().unwrap_or("**"))),
                None => (key.as_str(), None),
            };
            Ok(Override {
                files: glob(files)?.compile_matcher(),
                pointer,
                levels: parse_levels(levels, &format!("[overrides] \"{key}\""), true)?,
            })
        })
        .collect()
}

fn rule_name(name: &str, allow_all: bool) -> Result<Option<&'static str>, String> {
    if allow_all && name == ALL_RULES {
        return Ok(None);
    }
    match rules::resolve(name) {
        Ok(rule) => Ok(Some(rule.name)),
        Err(Some(suggestion)) => Err(format!(
            "there is no rule `{name}`; did you mean `{suggestion}`?"
        )),
        Err(None) => Err(format!(
            "there is no rule `{name}`; `iparams-lint rules` lists them"
        )),
    }
}

fn parse_level(level: &str) -> Result<Level, String> {
    match level {
        "off" => Ok(Level::Off),
        "info" => Ok(Level::On(Severity::Info)),
        "warning" => Ok(Level::On(Severity::Warning)),
        "error" => Ok(Level::On(Severity::Error)),
        other => {
            let hint = iparams_core::suggest::closest(other, LEVELS)
                .map(|s| format!("did you mean \"{s}\"? "))
                .unwrap_or_default();
            Err(format!(
                "\"{other}\" is not a severity; {hint}use one of {}",
                LEVELS.join(", ")
            ))
        }
    }
}

fn unknown_key(key: &str, known: &[&str], place: &str) -> String {
    let hint = iparams_core::suggest::closest(key, known.iter().copied())
        .map(|s| format!("did you mean `{s}`? "))
        .unwrap_or_default();
    format!(
        "unknown key `{key}` {place}; {hint}the keys are {}",
        known.join(", ")
    )
}

fn describe_toml_error(text: &str, error: &toml::de::Error) -> String {
    let message = error.message().trim_end();
    match error.span() {
        Some(span) => {
            let position = iparams_core::LineIndex::new(text).position(text, span.start);
            format!(
                "line {}, column {}: {message}",
                position.line, position.column
            )
        }
        None => message.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Result<Config, String> {
        Config::parse(Path::new("/repo/.iparams-lint.toml"), text).map_err(|e| e.message)
    }

    #[test]
    fn rules_overrides_and_ignores() {
        let config = parse(
            r#"
            ignore = ["legacy/**"]
            [rules]
            unknown-type = "warning"
            missing-default = "off"
            [overrides]
            "apps/a/**" = { missing-default = "error" }
            "apps/*/config/iparams.json#/k" = { "*" = "off" }
            "#,
        )
        .unwrap();
        assert!(config.ignores(Path::new("/repo/legacy/x/config/iparams.json")));
        assert!(!config.ignores(Path::new("/repo/apps/a/config/iparams.json")));
        let unknown_type = rules::find("unknown-type").unwrap();
        let missing_default = rules::find("missing-default").unwrap();
        let in_a = config.settings(Path::new("/repo/apps/a/config/iparams.json"), &[]);
        assert_eq!(in_a.level(missing_default), Level::On(Severity::Error));
        assert_eq!(in_a.level(unknown_type), Level::On(Severity::Warning));
        assert_eq!(in_a.level_at(unknown_type, "/k/type"), Level::Off);
        let in_b = config.settings(
            Path::new("/repo/apps/b/config/iparams.json"),
            &[(Some("unknown-type"), Level::On(Severity::Info))],
        );
        assert_eq!(in_b.level(missing_default), Level::Off);
        assert_eq!(in_b.level(unknown_type), Level::On(Severity::Info));
    }

    #[test]
    fn mistakes_are_named_with_a_suggestion() {
        assert_eq!(
            parse("rule = {}").unwrap_err(),
            "unknown key `rule` at the top level; did you mean `rules`? the keys are ignore, rules, overrides"
        );
        assert_eq!(
            parse("[rules]\nunknown-typ = \"off\"").unwrap_err(),
            "[rules]: there is no rule `unknown-typ`; did you mean `unknown-type`?"
        );
        assert_eq!(
            parse("[rules]\nunknown-type = \"warn\"").unwrap_err(),
            "[rules]: unknown-type: \"warn\" is not a severity; did you mean \"warning\"? use one of off, info, warning, error"
        );
        assert!(parse("[rules\n").unwrap_err().starts_with("line 1, column"));
        assert!(
            parse("[overrides]\n\"x#k\" = {}")
                .unwrap_err()
                .contains("a JSON pointer starts with `/`")
        );
    }

    #[test]
    fn command_line_rules() {
        assert_eq!(
            parse_command_line_rules(&["unknown-type=off".into()]),
            Ok(vec![(Some("unknown-type"), Level::Off)])
        );
        assert!(
            parse_command_line_rules(&["unknown-type".into()])
                .unwrap_err()
                .contains("NAME=SEVERITY")
        );
        assert!(
            parse_command_line_rules(&["unknwn-type=off".into()])
                .unwrap_err()
                .contains("did you mean `unknown-type`?")
        );
    }
}
