//! What a release ships agrees with itself: one version number in every
//! package's metadata, with its entry in CHANGELOG.md, and the file names
//! README.md gives for the wheel and the npm tarball.

use std::path::Path;

fn repo_file(path: &str) -> String {
    let file = Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join(path);
    std::fs::read_to_string(&file).unwrap_or_else(|e| panic!("cannot read {}: {e}", file.display()))
}

/// The value of the first line `key = "value"` (TOML) or `"key": "value",`
/// (JSON) of `text`.
fn first_value(text: &str, key: &str) -> Option<String> {
    text.lines().find_map(|line| {
        let line = line.trim();
        let rest =
            line.strip_prefix(&format!("{key} = \"")).or_else(|| line.strip_prefix(&format!("\"{key}\": \"")))?;
        Some(rest.split('"').next()?.to_string())
    })
}

#[test]
fn every_package_has_the_one_version_and_the_changelog_its_entry() {
    let version = first_value(&repo_file("Cargo.toml"), "version").expect("the workspace's version");
    for file in ["crates/python/Cargo.toml", "crates/python/pyproject.toml", "crates/npm/package.json"] {
        assert_eq!(first_value(&repo_file(file), "version").as_deref(), Some(version.as_str()), "{file}");
    }
    let changelog = repo_file("CHANGELOG.md");
    let newest = changelog.lines().find(|l| l.starts_with("## ")).expect("CHANGELOG.md has no release");
    assert!(newest.starts_with(&format!("## {version} ")) || newest == format!("## {version}"), "{newest}");
    let readme = repo_file("README.md");
    for name in [format!("dice_tables-{version}-cp39-abi3-"), format!("dice-tables-{version}.tgz")] {
        assert!(readme.contains(&name), "README.md does not name {name}");
    }
    assert!(readme.contains("## Versions"), "README.md has no version policy");
}
