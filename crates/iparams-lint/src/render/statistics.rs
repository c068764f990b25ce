//! `--statistics`: the findings counted by rule, most frequent first, as ruff counts them.

use std::collections::BTreeMap;
use std::io::{self, Write};
use std::sync::Mutex;

use iparams_core::{Applicability, Severity, sync::lock};
use serde_json::json;

use super::renderer::{CheckedFile, Renderer, Summary, plural};

/// What one rule found in the run.
#[derive(Debug, Default, Clone, Copy)]
struct Count {
    findings: usize,
    /// Findings `--fix` fixes, and those only `--unsafe-fixes` lets it.
    fixable: usize,
    unsafe_fixable: usize,
    severity: Option<Severity>,
}

#[derive(Debug, Default)]
pub struct Statistics {
    /// JSON rather than a table.
    json: bool,
    by_rule: Mutex<BTreeMap<&'static str, Count>>,
}

impl Statistics {
    pub fn new(json: bool) -> Self {
        Self {
            json,
            by_rule: Mutex::default(),
        }
    }
}

impl Renderer for Statistics {
    fn file(&self, file: &CheckedFile<'_>, _out: &mut dyn Write) -> io::Result<()> {
        let mut by_rule = lock(&self.by_rule);
        for d in &file.report.diagnostics {
            let count = by_rule.entry(d.rule).or_default();
            count.findings += 1;
            match d.fix.as_ref().map(|fix| fix.applicability) {
                _ if !file.report.well_formed => {}
                Some(Applicability::Safe) => count.fixable += 1,
                Some(Applicability::Unsafe) => count.unsafe_fixable += 1,
                None => {}
            }
            // The highest severity the rule's findings have (levels may differ by place).
            count.severity = count.severity.max(Some(d.severity));
        }
        Ok(())
    }

    fn end(&self, summary: &Summary, _wrote_files: bool, out: &mut dyn Write) -> io::Result<()> {
        let by_rule = lock(&self.by_rule);
        let mut rows: Vec<(&str, Count)> = by_rule.iter().map(|(r, c)| (*r, *c)).collect();
        rows.sort_by(|a, b| b.1.findings.cmp(&a.1.findings).then(a.0.cmp(b.0)));
        let severity = |count: &Count| count.severity.map_or("", |s| s.as_str());
        if self.json {
            let rows: Vec<_> = rows
                .iter()
                .map(|(rule, count)| {
                    json!({
                        "rule": rule,
                        "severity": severity(count),
                        "count": count.findings,
                        "fixable": count.fixable,
                        "unsafe_fixable": count.unsafe_fixable,
                    })
                })
                .collect();
            return writeln!(out, "{}", serde_json::Value::Array(rows));
        }
        let width = rows.iter().map(|(_, c)| c.findings.to_string().len()).max();
        let rule_width = rows.iter().map(|(rule, _)| rule.len()).max().unwrap_or(0);
        for (rule, count) in &rows {
            let fixable = match (count.fixable, count.unsafe_fixable) {
                (0, 0) => String::new(),
                (safe, 0) => format!("  ({safe} fixable with --fix)"),
                (0, risky) => format!("  ({risky} fixable with --fix --unsafe-fixes)"),
                (safe, risky) => format!("  ({safe} fixable with --fix, {risky} more unsafe)"),
            };
            writeln!(
                out,
                "{:>width$}  {rule:rule_width$}  {}{fixable}",
                count.findings,
                severity(count),
                width = width.unwrap_or(1),
            )?;
        }
        let files = plural(summary.files, "file");
        let findings = plural(rows.iter().map(|(_, c)| c.findings).sum(), "finding");
        writeln!(out, "{findings} in {files} checked")
    }
}
