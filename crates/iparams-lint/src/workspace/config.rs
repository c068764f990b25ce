//! `.iparams-lint.toml`: which rules run and how loud, files left out, and overrides for some
//! files or for one value of a file (JSON has no comments, so that is how one finding of
//! iparams.json is silenced). The command line's `--select`, `--ignore`, `--rule` and
//! `--exclude` come on top.
//!
//! ```toml
//! exclude = ["legacy/**"]            # `ignore`, the older name, is read too
//! select = ["secrets", "missing-default"]
//! ignore-rules = ["unanchored-regex"]
//!
//! [rules]
//! missing-default = "error"
//!
//! [overrides]
//! "apps/old-*/config/iparams.json" = { numeric-default = "off" }
//! "apps/*/app/scripts/legacy.js" = { "*" = "off" }
//! "apps/hr/config/iparams.json#/monkey" = { vendor-secure-false-positive = "off" }
//! ```
//!
//! Levels are settled in this order, each step over the one before: the file's `select`, its
//! `ignore-rules`, its `[rules]`, its overrides for the file's path, then the command line's
//! `--select`, `--ignore` and `--rule`, and last the overrides for one value.

use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use globset::{Glob, GlobBuilder, GlobMatcher, GlobSet, GlobSetBuilder};
use iparams_core::fast_hash::FastHashMap;
use iparams_core::rules::Area;
use iparams_core::{Level, RuleSettings, Severity, rules};

use super::place::IPARAMS_FILE;
use crate::cli::RuleArgs;

/// The name of the file looked for in each checked file's folder and the folders above it.
pub const FILE_NAME: &str = ".iparams-lint.toml";

const KEYS: [&str; 6] = [
    "exclude",
    "ignore",
    "select",
    "ignore-rules",
    "rules",
    "overrides",
];
const LEVELS: [&str; 4] = ["off", "info", "warning", "error"];
/// Stands for every rule, wherever rules are named.
const ALL_RULES: &str = "*";
/// Stands for every rule in a selection, as in ruff.
const ALL_SELECTED: &str = "ALL";

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

/// One step of settling the rule levels; steps apply in order, each over the ones before.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Step {
    /// Only these rules run: every other one is turned off, and one of these that an earlier
    /// step turned off runs again at its own severity.
    Select(Vec<&'static str>),
    /// A rule's level.
    Set(RuleLevel),
}

/// Globs, and the folder they are relative to.
#[derive(Debug, Clone)]
pub struct Globs {
    root: PathBuf,
    set: GlobSet,
    patterns: Vec<String>,
}

impl Globs {
    fn new(root: PathBuf, patterns: Vec<String>) -> Result<Self, String> {
        let mut set = GlobSetBuilder::new();
        for pattern in &patterns {
            set.add(glob(pattern)?);
        }
        let set = set.build().map_err(|error| error.to_string())?;
        Ok(Self {
            root,
            set,
            patterns,
        })
    }

    /// Whether a glob matches `file` (relative to the globs' folder, when it is inside it).
    pub fn matches(&self, file: &Path) -> bool {
        !self.patterns.is_empty() && self.set.is_match(relative_to(&self.root, file))
    }

    /// The globs as written.
    pub fn patterns(&self) -> &[String] {
        &self.patterns
    }

    /// The folder they are relative to.
    pub fn root(&self) -> &Path {
        &self.root
    }
}

#[derive(Debug)]
struct Override {
    key: String,
    files: GlobMatcher,
    pointer: Option<String>,
    levels: Vec<RuleLevel>,
}

/// One parsed configuration file.
#[derive(Debug)]
pub struct Config {
    pub path: PathBuf,
    /// The files left unchecked (`exclude`, and `ignore`, its older name).
    exclude: Globs,
    steps: Vec<Step>,
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
        let mut excluded = Vec::new();
        let (mut select, mut ignore_rules, mut levels) = (None, Vec::new(), Vec::new());
        let mut overrides = Vec::new();
        for (key, value) in &table {
            match key.as_str() {
                "exclude" | "ignore" => excluded.extend(parse_globs(key, value).map_err(fail)?),
                "select" => select = Some(parse_names(key, value).map_err(fail)?),
                "ignore-rules" => ignore_rules = parse_names(key, value).map_err(fail)?,
                "rules" => levels = parse_levels(value, "[rules]").map_err(fail)?,
                "overrides" => overrides = parse_overrides(value).map_err(fail)?,
                other => return Err(fail(unknown_key(other, &KEYS, "at the top level"))),
            }
        }
        // Whatever order the keys are written in: the selection, then what is left out of
        // it, then the levels named one by one.
        let steps = select
            .map(Step::Select)
            .into_iter()
            .chain(
                ignore_rules
                    .into_iter()
                    .map(|rule| Step::Set((Some(rule), Level::Off))),
            )
            .chain(levels.into_iter().map(Step::Set))
            .collect();
        Ok(Config {
            path: path.to_owned(),
            exclude: Globs::new(absolute(folder), excluded).map_err(fail)?,
            steps,
            overrides,
        })
    }

    /// Whether `file` is to be left unchecked.
    pub fn ignores(&self, file: &Path) -> bool {
        self.exclude.matches(file)
    }

    /// The files left unchecked.
    pub fn excluded(&self) -> &Globs {
        &self.exclude
    }

    /// The overrides as written: each key, and whether it matches `file`.
    pub fn overrides_for(&self, file: &Path) -> Vec<(&str, bool)> {
        let relative = relative_to(self.exclude.root(), file);
        self.overrides
            .iter()
            .map(|o| (o.key.as_str(), o.files.is_match(&relative)))
            .collect()
    }

    /// Whether every file gets the same levels: no override for some files, none left out.
    fn is_uniform(&self) -> bool {
        self.overrides.is_empty() && self.exclude.patterns.is_empty()
    }

    /// The rule levels for `file`, in the order the module's documentation gives.
    fn settings(&self, file: &Path, command_line: &[Step]) -> RuleSettings {
        let relative = relative_to(self.exclude.root(), file);
        let matching = || {
            self.overrides
                .iter()
                .filter(|o| o.files.is_match(&relative))
        };
        let for_file = matching()
            .filter(|o| o.pointer.is_none())
            .flat_map(|o| o.levels.iter().copied().map(Step::Set));
        let steps: Vec<Step> = (self.steps.iter().cloned())
            .chain(for_file)
            .chain(command_line.iter().cloned())
            .collect();
        let mut settings = settings_of(&steps);
        for pointed in matching() {
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
}

/// What the command line says of configuration: `--config`, `--rule`, `--select`, `--ignore`
/// and `--exclude`, as given.
#[derive(Debug, Clone, Default)]
pub struct Choices {
    pub config: Option<PathBuf>,
    pub rules: Vec<String>,
    pub select: Vec<String>,
    pub ignore: Vec<String>,
    pub exclude: Vec<String>,
}

impl Choices {
    /// What a command's rule arguments say; `exclude` is the check's, given apart.
    pub fn of(rules: &RuleArgs, exclude: &[String]) -> Self {
        Self {
            config: rules.config.clone(),
            rules: rules.rules.clone(),
            select: rules.select.clone(),
            ignore: rules.ignore.clone(),
            exclude: exclude.to_vec(),
        }
    }
}

/// The command line's steps and excluded files, read.
#[derive(Debug, Clone)]
pub struct CommandLine {
    steps: Vec<Step>,
    /// `--exclude`: globs relative to the working folder.
    exclude: Globs,
}

impl CommandLine {
    fn parse(choices: &Choices) -> Result<Self, String> {
        let select: Vec<&'static str> = names_of_flag("--select", &choices.select)?;
        let ignore = names_of_flag("--ignore", &choices.ignore)?;
        let steps = (!choices.select.is_empty())
            .then_some(Step::Select(select))
            .into_iter()
            .chain(
                ignore
                    .into_iter()
                    .map(|rule| Step::Set((Some(rule), Level::Off))),
            )
            .chain(
                parse_command_line_rules(&choices.rules)?
                    .into_iter()
                    .map(Step::Set),
            )
            .collect();
        let exclude = Globs::new(absolute(Path::new(".")), choices.exclude.clone())
            .map_err(|message| format!("--exclude: {message}"))?;
        Ok(Self { steps, exclude })
    }

    /// `--exclude`'s globs.
    pub fn excluded(&self) -> &Globs {
        &self.exclude
    }
}

/// Where each file's rule levels come from: the command line, and a configuration file (the
/// one given with `--config`, or the nearest above the file, read once per folder).
#[derive(Debug, Clone)]
pub struct RuleSources {
    command_line: Arc<CommandLine>,
    explicit: Option<Arc<Config>>,
    found: FastHashMap<PathBuf, Option<Arc<Config>>>,
}

impl RuleSources {
    /// Reads the command line's `choices`; `Err` says what is wrong with them.
    pub fn new(choices: &Choices) -> Result<Self, String> {
        let command_line = Arc::new(CommandLine::parse(choices)?);
        let explicit = (choices.config.as_deref())
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

    /// The command line's part.
    pub fn command_line(&self) -> &CommandLine {
        &self.command_line
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
        match config {
            Some(config) => config.settings(file, &self.command_line.steps),
            None => settings_of(&self.command_line.steps),
        }
    }

    /// Whether `file` is left unchecked, by `--exclude` or by `config`.
    pub fn excludes(&self, config: Option<&Config>, file: &Path) -> bool {
        self.command_line.exclude.matches(file) || config.is_some_and(|c| c.ignores(file))
    }

    /// The levels of the files of the app at `root`: those of its config/iparams.json, and
    /// how to settle each file's.
    pub fn for_app(&mut self, root: &Path) -> Result<JobRules, String> {
        let location = root.join(IPARAMS_FILE);
        let config = self.config_for(&location)?;
        let main = self.settings(config.as_deref(), &location);
        let uniform = self.command_line.exclude.patterns.is_empty()
            && config.as_deref().is_none_or(Config::is_uniform);
        let files = (!uniform).then(|| FileRules {
            config,
            command_line: Arc::clone(&self.command_line),
            root: root.to_owned(),
        });
        Ok(JobRules { main, files })
    }
}

/// The configuration that applies to one file, resolved: what `--show-settings` prints.
#[derive(Debug)]
pub struct Resolved {
    /// The file the levels are for.
    pub file: PathBuf,
    /// The configuration file found or given, if any.
    pub config: Option<PathBuf>,
    /// The configuration's `exclude`, and `--exclude`.
    pub excluded: Vec<Globs>,
    /// Whether they leave the file out.
    pub excludes_file: bool,
    /// The configuration's overrides: each key, and whether it matches the file.
    pub overrides: Vec<(String, bool)>,
    /// Every rule's level for the file (overrides for one value aside), in the registry's
    /// order.
    pub levels: Vec<(&'static iparams_core::Rule, Level)>,
}

impl RuleSources {
    /// The configuration that applies to `file`, resolved.
    pub fn resolve(&mut self, file: &Path) -> Result<Resolved, String> {
        let config = self.config_for(file)?;
        let settings = self.settings(config.as_deref(), file);
        let excluded = (config.iter().map(|config| config.exclude.clone()))
            .chain([self.command_line.exclude.clone()])
            .filter(|globs| !globs.patterns.is_empty())
            .collect();
        Ok(Resolved {
            file: file.to_owned(),
            config: config.as_ref().map(|config| config.path.clone()),
            excluded,
            excludes_file: self.excludes(config.as_deref(), file),
            overrides: (config.iter())
                .flat_map(|config| config.overrides_for(file))
                .map(|(key, applies)| (key.to_owned(), applies))
                .collect(),
            levels: (rules::REGISTRY.iter())
                .map(|rule| (*rule, settings.level(rule)))
                .collect(),
        })
    }
}

/// The rule levels of what one job checks: those of the file that locates it (an app's
/// config/iparams.json, a file checked on its own), and, when configuration tells an app's
/// files apart, how to settle those of each file.
#[derive(Debug, Clone, Default)]
pub struct JobRules {
    main: RuleSettings,
    files: Option<FileRules>,
}

/// How the levels of each file of an app are settled.
#[derive(Debug, Clone)]
struct FileRules {
    config: Option<Arc<Config>>,
    command_line: Arc<CommandLine>,
    root: PathBuf,
}

impl JobRules {
    /// The same levels for every file, none left out.
    pub fn uniform(settings: RuleSettings) -> Self {
        Self {
            main: settings,
            files: None,
        }
    }

    /// The levels of the file that locates the job: an app's config/iparams.json, which its
    /// fixes follow, or the file checked on its own.
    pub fn main(&self) -> &RuleSettings {
        &self.main
    }

    /// Whether every file of the job gets [`JobRules::main`].
    pub fn is_uniform(&self) -> bool {
        self.files.is_none()
    }

    /// The levels of the file at `relative` inside the job's app; `None` when it is left out.
    pub fn for_file(&self, relative: &str) -> Option<RuleSettings> {
        let Some(files) = &self.files else {
            return Some(self.main.clone());
        };
        let path = files.root.join(relative);
        let config = files.config.as_deref();
        if files.command_line.exclude.matches(&path) || config.is_some_and(|c| c.ignores(&path)) {
            return None;
        }
        Some(match config {
            Some(config) => config.settings(&path, &files.command_line.steps),
            None => settings_of(&files.command_line.steps),
        })
    }
}

/// The levels that `steps` settle, one after the other.
fn settings_of(steps: &[Step]) -> RuleSettings {
    let mut levels: FastHashMap<&'static str, Level> = FastHashMap::default();
    for step in steps {
        match step {
            Step::Set((Some(rule), level)) => {
                levels.insert(rule, *level);
            }
            Step::Set((None, level)) => {
                for rule in rules::REGISTRY {
                    levels.insert(rule.name, *level);
                }
            }
            Step::Select(selected) => {
                for rule in rules::REGISTRY {
                    if !selected.contains(&rule.name) {
                        levels.insert(rule.name, Level::Off);
                    } else if levels.get(rule.name) == Some(&Level::Off) {
                        // Back to its own severity, which a finding may raise or lower.
                        levels.remove(rule.name);
                    }
                }
            }
        }
    }
    let mut settings = RuleSettings::default();
    for (rule, level) in levels {
        settings
            .set(rule, level)
            .expect("rule names were checked when parsing");
    }
    settings
}

/// `name=severity` arguments of `--rule`.
pub fn parse_command_line_rules(arguments: &[String]) -> Result<Vec<RuleLevel>, String> {
    let mut levels = Vec::new();
    for argument in arguments {
        let (name, level) = argument.split_once('=').ok_or_else(|| {
            format!("--rule {argument}: write it as NAME=SEVERITY, such as unanchored-regex=off")
        })?;
        let rules = rules_named(name.trim(), true)
            .map_err(|message| format!("--rule {argument}: {message}"))?;
        let level =
            parse_level(level.trim()).map_err(|message| format!("--rule {argument}: {message}"))?;
        levels.extend(rules.into_iter().map(|rule| (rule, level)));
    }
    Ok(levels)
}

/// The rules `--select` or `--ignore` name: comma-separated names of rules or groups, in one
/// argument or several.
fn names_of_flag(flag: &str, arguments: &[String]) -> Result<Vec<&'static str>, String> {
    let mut names = Vec::new();
    for name in arguments.iter().flat_map(|argument| argument.split(',')) {
        let name = name.trim();
        if name.is_empty() {
            continue;
        }
        names.extend(selected(name).map_err(|message| format!("{flag} {name}: {message}"))?);
    }
    Ok(names)
}

/// The rules a name of a selection stands for: `*` or `ALL`, a rule, or a group.
fn selected(name: &str) -> Result<Vec<&'static str>, String> {
    if name == ALL_SELECTED {
        return Ok(rules::REGISTRY.iter().map(|rule| rule.name).collect());
    }
    let rules = rules_named(name, true)?;
    Ok(match rules.as_slice() {
        [None] => rules::REGISTRY.iter().map(|rule| rule.name).collect(),
        _ => rules.into_iter().flatten().collect(),
    })
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

/// `file` relative to `root`, when it is inside it.
fn relative_to(root: &Path, file: &Path) -> PathBuf {
    let file = absolute(file);
    file.strip_prefix(root).map(Path::to_owned).unwrap_or(file)
}

fn parse_globs(key: &str, value: &toml::Value) -> Result<Vec<String>, String> {
    let patterns = value
        .as_array()
        .ok_or_else(|| format!("`{key}` must be an array of globs, such as [\"legacy/**\"]"))?;
    patterns
        .iter()
        .map(|pattern| {
            let pattern = pattern
                .as_str()
                .ok_or_else(|| format!("each `{key}` entry must be a glob string"))?;
            glob(pattern)?;
            Ok(pattern.to_owned())
        })
        .collect()
}

/// `select` and `ignore-rules`: an array of names of rules or groups.
fn parse_names(key: &str, value: &toml::Value) -> Result<Vec<&'static str>, String> {
    let names = value.as_array().ok_or_else(|| {
        format!("`{key}` must be an array of rule or group names, such as [\"secrets\", \"unanchored-regex\"]")
    })?;
    let mut rules = Vec::new();
    for name in names {
        let name = name
            .as_str()
            .ok_or_else(|| format!("each `{key}` entry must be a rule or group name"))?;
        rules.extend(selected(name).map_err(|message| format!("`{key}`: {message}"))?);
    }
    Ok(rules)
}

fn glob(pattern: &str) -> Result<Glob, String> {
    GlobBuilder::new(pattern)
        .literal_separator(true)
        .build()
        .map_err(|error| format!("`{pattern}` is not a valid glob: {error}"))
}

fn parse_levels(value: &toml::Value, section: &str) -> Result<Vec<RuleLevel>, String> {
    let table = value
        .as_table()
        .ok_or_else(|| format!("{section} must be a table of rule = \"severity\""))?;
    let mut levels = Vec::new();
    for (name, level) in table {
        let rules = rules_named(name, true).map_err(|message| format!("{section}: {message}"))?;
        let level = level.as_str().ok_or_else(|| {
            format!(
                "{section}: the severity of {name} must be a string: one of {}",
                LEVELS.join(", ")
            )
        })?;
        let level =
            parse_level(level).map_err(|message| format!("{section}: {name}: {message}"))?;
        levels.extend(rules.into_iter().map(|rule| (rule, level)));
    }
    Ok(levels)
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
                key: key.clone(),
                files: glob(files)?.compile_matcher(),
                pointer,
                levels: parse_levels(levels, &format!("[overrides] \"{key}\""))?,
            })
        })
        .collect()
}

/// The rules `name` stands for: one rule, the rules of a group, or every rule (`None`, for
/// `*` when `allow_all`).
fn rules_named(name: &str, allow_all: bool) -> Result<Vec<Option<&'static str>>, String> {
    if allow_all && name == ALL_RULES {
        return Ok(vec![None]);
    }
    if let Ok(rule) = rules::resolve(name) {
        return Ok(vec![Some(rule.name)]);
    }
    if let Some(area) = Area::named(name) {
        let in_group = rules::REGISTRY.iter().filter(|rule| rule.area == area);
        return Ok(in_group.map(|rule| Some(rule.name)).collect());
    }
    // Groups first: of two names as close, the first is suggested.
    let groups = Area::ALL.iter().map(|area| area.name());
    let names = groups.chain(rules::REGISTRY.iter().map(|rule| rule.name));
    match iparams_core::suggest::closest(name, names) {
        Some(suggestion) => Err(format!(
            "there is no rule `{name}`; did you mean `{suggestion}`?"
        )),
        None => Err(format!(
            "there is no rule or group `{name}`; `iparams-lint rules` lists them"
        )),
    }
}

fn parse_level(level: &str) -> Result<Level, String> {
    match level {
        "off" => Ok(Level::Off),
        "info" => Ok(Level::On(Severity::Info)),
        // `warn`, as eslint and biome spell it.
        "warning" | "warn" => Ok(Level::On(Severity::Warning)),
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

    fn rule(name: &str) -> &'static iparams_core::Rule {
        rules::find(name).expect("a rule")
    }

    #[test]
    fn rules_overrides_and_ignores() {
        let config = parse(
            r#"
            ignore = ["legacy/**"]
            exclude = ["old.json"]
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
        assert!(config.ignores(Path::new("/repo/old.json")));
        assert!(!config.ignores(Path::new("/repo/apps/a/config/iparams.json")));
        let (unknown_type, missing_default) = (rule("unknown-type"), rule("missing-default"));
        let in_a = config.settings(Path::new("/repo/apps/a/config/iparams.json"), &[]);
        assert_eq!(in_a.level(missing_default), Level::On(Severity::Error));
        assert_eq!(in_a.level(unknown_type), Level::On(Severity::Warning));
        assert_eq!(in_a.level_at(unknown_type, "/k/type"), Level::Off);
        let in_b = config.settings(
            Path::new("/repo/apps/b/config/iparams.json"),
            &[Step::Set((Some("unknown-type"), Level::On(Severity::Info)))],
        );
        assert_eq!(in_b.level(missing_default), Level::Off);
        assert_eq!(in_b.level(unknown_type), Level::On(Severity::Info));
        // A script of the app gets the overrides that match it, not the pointer's.
        let script = config.settings(Path::new("/repo/apps/a/app/scripts/app.js"), &[]);
        assert_eq!(script.level(missing_default), Level::On(Severity::Error));
        assert_eq!(
            script.level_at(unknown_type, "/k/type"),
            Level::On(Severity::Warning)
        );
    }

    #[test]
    fn selection_then_what_is_left_out_then_levels() {
        let config = parse(
            r#"
            ignore-rules = ["unknown-type"]
            select = ["keys", "missing-default"]
            [rules]
            attribute-type = "info"
            "#,
        )
        .unwrap();
        let settings = config.settings(Path::new("/repo/config/iparams.json"), &[]);
        assert_eq!(
            settings.level(rule("missing-default")),
            Level::On(Severity::Error)
        );
        assert_eq!(settings.level(rule("unknown-type")), Level::Off);
        assert_eq!(
            settings.level(rule("attribute-type")),
            Level::On(Severity::Info)
        );
        assert_eq!(settings.level(rule("unanchored-regex")), Level::Off);
        // The command line's selection comes last: a rule it names runs again.
        let command_line = CommandLine::parse(&Choices {
            select: vec!["unknown-type, regexes".into()],
            ignore: vec!["unanchored-regex".into()],
            ..Choices::default()
        })
        .unwrap();
        let settings = config.settings(Path::new("/repo/config/iparams.json"), &command_line.steps);
        assert_eq!(
            settings.level(rule("unknown-type")),
            Level::On(Severity::Error)
        );
        assert_eq!(settings.level(rule("missing-default")), Level::Off);
        assert_eq!(settings.level(rule("unanchored-regex")), Level::Off);
        assert_eq!(
            settings.level(rule("invalid-regex")),
            Level::On(Severity::Error)
        );
    }

    #[test]
    fn every_rule_and_warn() {
        let levels =
            parse_command_line_rules(&["*=off".into(), "unknown-type=warn".into()]).unwrap();
        let steps: Vec<Step> = levels.into_iter().map(Step::Set).collect();
        let settings = settings_of(&steps);
        assert_eq!(
            settings.level(rule("unknown-type")),
            Level::On(Severity::Warning)
        );
        assert_eq!(settings.level(rule("missing-default")), Level::Off);
    }

    #[test]
    fn mistakes_are_named_with_a_suggestion() {
        assert_eq!(
            parse("rule = {}").unwrap_err(),
            "unknown key `rule` at the top level; did you mean `rules`? the keys are exclude, ignore, select, ignore-rules, rules, overrides"
        );
        assert_eq!(
            parse("[rules]\nunknown-typ = \"off\"").unwrap_err(),
            "[rules]: there is no rule `unknown-typ`; did you mean `unknown-type`?"
        );
        assert_eq!(
            parse("[rules]\nunknown-type = \"warnng\"").unwrap_err(),
            "[rules]: unknown-type: \"warnng\" is not a severity; did you mean \"warning\"? use one of off, info, warning, error"
        );
        assert_eq!(
            parse("select = [\"secret\"]").unwrap_err(),
            "`select`: there is no rule `secret`; did you mean `secrets`?"
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
        let wrong = CommandLine::parse(&Choices {
            ignore: vec!["unknown-typo".into()],
            ..Choices::default()
        });
        assert_eq!(
            wrong.unwrap_err(),
            "--ignore unknown-typo: there is no rule `unknown-typo`; did you mean `unknown-type`?"
        );
    }
}
