//! Rule levels as configured: per rule, and per JSON pointer.

use super::framework::Rule;
use super::registry::resolve;
use crate::diagnostic::Severity;
use crate::fast_hash::FastHashMap;

/// A rule's level as configured: off, or on at a severity.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Level {
    Off,
    On(Severity),
}

/// Per-rule levels; rules not mentioned run at their default severity. Levels can also be set
/// for the findings about one value, named by its JSON pointer.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RuleSettings {
    levels: FastHashMap<&'static str, Level>,
    at_pointers: Vec<PointerLevel>,
}

/// A level for the findings about the value at `pointer` (and the values below it).
#[derive(Clone, Debug, PartialEq, Eq)]
struct PointerLevel {
    pointer: String,
    /// `None`: every rule.
    rule: Option<&'static str>,
    level: Level,
}

impl RuleSettings {
    /// Sets the level of the rule called `name`; `Err` with a suggestion when there is no such rule.
    pub fn set(&mut self, name: &str, level: Level) -> Result<(), Option<&'static str>> {
        let rule = resolve(name)?;
        self.levels.insert(rule.name, level);
        Ok(())
    }

    /// Sets the level of rule `name` (every rule with `None`) for findings about the value at
    /// `pointer` or below it; later calls win over earlier ones.
    pub fn set_at(
        &mut self,
        pointer: &str,
        name: Option<&str>,
        level: Level,
    ) -> Result<(), Option<&'static str>> {
        let rule = name.map(resolve).transpose()?.map(|rule| rule.name);
        self.at_pointers.push(PointerLevel {
            pointer: pointer.to_owned(),
            rule,
            level,
        });
        Ok(())
    }

    pub fn level(&self, rule: &Rule) -> Level {
        if self.levels.is_empty() {
            // The usual case, asked for every rule on every check: no name to hash.
            return Level::On(rule.severity);
        }
        self.levels
            .get(rule.name)
            .copied()
            .unwrap_or(Level::On(rule.severity))
    }

    /// The level for a finding of `rule` about the value at `pointer`.
    pub fn level_at(&self, rule: &Rule, pointer: &str) -> Level {
        self.configured_at(rule, pointer)
            .unwrap_or(Level::On(rule.severity))
    }

    /// The level configured for findings of `rule` about the value at `pointer`, by the rule's
    /// name or the pointer; `None` when nothing is configured for them.
    pub fn configured_at(&self, rule: &Rule, pointer: &str) -> Option<Level> {
        let covers = |at: &PointerLevel| {
            at.rule.is_none_or(|name| name == rule.name)
                && (pointer == at.pointer
                    || pointer
                        .strip_prefix(at.pointer.as_str())
                        .is_some_and(|rest| rest.starts_with('/')))
        };
        self.at_pointers
            .iter()
            .rev()
            .find(|at| covers(at))
            .map(|at| at.level)
            .or_else(|| self.levels.get(rule.name).copied())
    }

    /// Nothing is configured: every rule runs at its default severity.
    pub fn is_default(&self) -> bool {
        self.levels.is_empty() && self.at_pointers.is_empty()
    }

    /// Whether the rule runs at all: on by default, or on for some pointer.
    pub fn is_enabled(&self, rule: &Rule) -> bool {
        self.level(rule) != Level::Off
            || self
                .at_pointers
                .iter()
                .any(|at| at.level != Level::Off && at.rule.is_none_or(|name| name == rule.name))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pointer_levels_cover_the_value_and_below() {
        let mut settings = RuleSettings::default();
        settings.set("unknown-type", Level::Off).unwrap();
        settings
            .set_at("/a", Some("unknown-type"), Level::On(Severity::Info))
            .unwrap();
        settings.set_at("/a/type", None, Level::Off).unwrap();
        let rule = super::super::registry::find("unknown-type").expect("a rule");
        assert!(settings.is_enabled(rule));
        assert_eq!(settings.level_at(rule, "/b/type"), Level::Off);
        assert_eq!(
            settings.level_at(rule, "/a/options"),
            Level::On(Severity::Info)
        );
        assert_eq!(settings.level_at(rule, "/ab"), Level::Off);
        assert_eq!(settings.level_at(rule, "/a/type"), Level::Off);
        assert_eq!(settings.set_at("/a", Some("nope"), Level::Off), Err(None));
    }

    #[test]
    fn settings_reject_unknown_rules_with_a_suggestion() {
        let mut settings = RuleSettings::default();
        assert_eq!(
            settings.set("unknown-typ", Level::Off),
            Err(Some("unknown-type"))
        );
        assert_eq!(
            settings.set("unknown-type", Level::On(Severity::Warning)),
            Ok(())
        );
        assert_eq!(
            settings.level(super::super::registry::find("unknown-type").expect("a rule")),
            Level::On(Severity::Warning)
        );
    }
}
