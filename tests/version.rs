//! One version number everywhere a release names it: the crates and their path dependencies, the
//! npm packages, the Python projects, the VS Code extension, the GitHub Action, the pre-commit
//! hooks' example, the README and the changelog.

mod support;

use std::fs;

use support::repo_root;

fn read(path: &str) -> String {
    fs::read_to_string(repo_root().join(path)).unwrap_or_else(|why| panic!("{path}: {why}"))
}

fn json(path: &str) -> serde_json::Value {
    serde_json::from_str(&read(path)).unwrap_or_else(|why| panic!("{path}: {why}"))
}

fn toml(path: &str) -> toml::Table {
    read(path)
        .parse()
        .unwrap_or_else(|why| panic!("{path}: {why}"))
}

/// The version the workspace's crates share.
fn version() -> String {
    let cargo = toml("Cargo.toml");
    cargo["workspace"]["package"]["version"]
        .as_str()
        .expect("[workspace.package] version")
        .to_owned()
}

/// Every `X.Y.Z` that follows `marker` in `text`, with where it is.
fn versions_after<'t>(text: &'t str, marker: &str) -> Vec<(usize, &'t str)> {
    text.match_indices(marker)
        .map(|(at, _)| {
            let rest = &text[at + marker.len()..];
            let end = rest
                .find(|c: char| !(c.is_ascii_digit() || c == '.'))
                .unwrap_or(rest.len());
            (at, rest[..end].trim_end_matches('.'))
        })
        .filter(|(_, found)| found.matches('.').count() == 2)
        .collect()
}

#[test]
fn the_crates_and_their_path_dependencies_share_the_version() {
    let version = version();
    let cargo = toml("Cargo.toml");
    let dependencies = cargo["workspace"]["dependencies"].as_table().expect("deps");
    let mut ours = 0;
    for (name, spec) in dependencies {
        if spec.get("path").is_some() {
            ours += 1;
            assert_eq!(
                spec.get("version").and_then(|v| v.as_str()),
                Some(format!("={version}").as_str()),
                "Cargo.toml: [workspace.dependencies] {name} must say version = \"={version}\""
            );
        }
    }
    assert!(
        ours >= 3,
        "the workspace's own crates are path dependencies"
    );
    for entry in fs::read_dir(repo_root().join("crates")).expect("crates/") {
        let manifest = entry.expect("entry").path().join("Cargo.toml");
        let text = fs::read_to_string(&manifest).expect("Cargo.toml");
        assert!(
            text.contains("version.workspace = true"),
            "{}: the version must be the workspace's",
            manifest.display()
        );
    }
}

#[test]
fn the_npm_packages_and_the_extension_share_the_version() {
    let version = version();
    let launcher = json("npm/iparams-lint/package.json");
    assert_eq!(launcher["version"], version.as_str(), "npm/iparams-lint");
    let optional = launcher["optionalDependencies"].as_object().expect("map");
    assert_eq!(
        optional.len(),
        7,
        "one binary package per platform (Linux: glibc and musl)"
    );
    for (name, wanted) in optional {
        assert_eq!(wanted, version.as_str(), "npm/iparams-lint: {name}");
    }
    let extension = json("editors/vscode/package.json");
    assert_eq!(extension["version"], version.as_str(), "editors/vscode");
    let lock = json("editors/vscode/package-lock.json");
    assert_eq!(
        lock["version"],
        version.as_str(),
        "editors/vscode/package-lock.json"
    );
    assert_eq!(lock["packages"][""]["version"], version.as_str());
}

#[test]
fn the_python_projects_share_the_version() {
    let version = version();
    let hooks = toml("pyproject.toml");
    assert_eq!(hooks["project"]["version"].as_str(), Some(version.as_str()));
    let dependencies = hooks["project"]["dependencies"].as_array().expect("list");
    assert_eq!(
        dependencies,
        &vec![toml::Value::from(format!("iparams-lint=={version}"))],
        "pyproject.toml: the hooks install the wheel of this version, and nothing that compiles"
    );
    // The wheel takes the crate's version (maturin reads Cargo.toml).
    let wheel = toml("dist/pypi/pyproject.toml");
    assert!(wheel["project"].get("version").is_none());
    assert_eq!(
        wheel["project"]["dynamic"].as_array(),
        Some(&vec![toml::Value::from("version")])
    );
    assert_eq!(
        wheel["tool"]["maturin"]["manifest-path"].as_str(),
        Some("../../crates/iparams-lint/Cargo.toml")
    );
}

#[test]
fn the_action_the_hooks_readme_and_changelog_name_the_version() {
    let version = version();
    let action = read("action.yml");
    let defaults = versions_after(&action, "default: \"");
    assert_eq!(defaults.len(), 1, "action.yml: the version input's default");
    assert_eq!(
        defaults[0].1, version,
        "action.yml: the version input's default"
    );
    for path in ["action.yml", ".pre-commit-hooks.yaml", "README.md"] {
        let text = read(path);
        let named: Vec<_> = ["@v", "rev: v", "@", "==", "iparams-lint v"]
            .iter()
            .flat_map(|marker| versions_after(&text, marker))
            .collect();
        assert!(!named.is_empty(), "{path} names no version");
        for (at, found) in named {
            let line = text[..at].lines().count();
            assert_eq!(found, version, "{path}:{line} names {found}, not {version}");
        }
    }
    let changelog = read("CHANGELOG.md");
    let latest = changelog
        .lines()
        .find(|line| line.starts_with("## ["))
        .expect("CHANGELOG.md: a `## [VERSION]` section");
    assert!(
        latest.starts_with(&format!("## [{version}]")),
        "CHANGELOG.md: the latest section is `{latest}`, not {version}"
    );
}
