//! A library named the way its users write it: a bare `Name.js` (`Leaflet.js`, `Moment.js`,
//! `Chart.js`) or `Name.jl` (`Optimization.jl`, `LogDensityProblems.jl`, the Julia way of
//! naming a package) that no file of the repository was ever called is the library when a
//! manifest of the repository depends on it (`package.json`: `leaflet`, `moment`, `chart.js`;
//! `Project.toml`: `Optimization`), not a file the memory got wrong.

use super::Checker;

/// The `package.json` fields that list what a package depends on.
const DEPENDENCY_FIELDS: &[&str] = &["dependencies", "devDependencies", "peerDependencies", "optionalDependencies"];

/// The `Project.toml` tables whose keys are package names: what the package needs, what its
/// extensions load, and what its tests add.
const JULIA_TABLES: &[&str] = &["deps", "weakdeps", "extras"];

impl Checker<'_> {
    /// For a bare `Name.js` or `Name.jl`, the first manifest (by path) that depends on the
    /// library of that name, and the package name it lists; `None` for anything else.
    pub(super) fn declared_library(&self, name: &str) -> Option<(String, String)> {
        if name.contains('/') {
            return None;
        }
        if let Some(stem) = name.strip_suffix(".js").or_else(|| name.strip_suffix(".JS")) {
            let stem = stem.to_ascii_lowercase();
            let wanted = [stem.clone(), format!("{stem}.js"), format!("{stem}js")];
            return self.first_manifest("package.json", |text| {
                let json: serde_json::Value = serde_json::from_str(text).ok()?;
                DEPENDENCY_FIELDS
                    .iter()
                    .filter_map(|field| json.get(field)?.as_object())
                    .flat_map(|deps| deps.keys())
                    .find(|key| wanted.iter().any(|w| w == &key.to_ascii_lowercase()))
                    .cloned()
            });
        }
        let stem = name.strip_suffix(".jl")?;
        self.first_manifest("Project.toml", |text| julia_dependencies(text).into_iter().find(|dep| dep == stem))
    }

    /// The first file named `manifest` (by path) whose text `listed` finds the library in.
    fn first_manifest(&self, manifest: &str, listed: impl Fn(&str) -> Option<String>) -> Option<(String, String)> {
        let mut paths: Vec<&str> =
            self.index.files_named(manifest).iter().map(|&i| self.index.file_at(i).path.as_str()).collect();
        paths.sort_unstable();
        paths.into_iter().find_map(|path| Some((path.to_owned(), listed(&self.index.read_text(path)?)?)))
    }
}

/// The package names a Julia `Project.toml` lists in [`JULIA_TABLES`]: the keys of
/// `Name = "uuid"` lines under those headers. A line-wise reading is enough for the flat tables
/// the format has; anything else is passed over.
fn julia_dependencies(text: &str) -> Vec<String> {
    let mut listing = false;
    let mut names = Vec::new();
    for line in text.lines().map(str::trim) {
        if let Some(header) = line.strip_prefix('[').and_then(|l| l.strip_suffix(']')) {
            listing = JULIA_TABLES.contains(&header.trim());
            continue;
        }
        if !listing {
            continue;
        }
        if let Some((key, value)) = line.split_once('=') {
            let key = key.trim().trim_matches('"');
            let value = value.trim();
            if !key.is_empty() && value.starts_with('"') && key.chars().all(|c| c.is_alphanumeric() || c == '_') {
                names.push(key.to_owned());
            }
        }
    }
    names
}

#[cfg(test)]
mod tests {
    use super::julia_dependencies;

    #[test]
    fn a_project_toml_lists_the_packages_of_its_dependency_tables_only() {
        let text = "name = \"Turing\"\nuuid = \"fce5\"\n\n[deps]\nAbstractMCMC = \"80f1\"\n\"Optimization\" = \"7f7a\"\n\n[compat]\nDistributions = \"0.25\"\n\n[weakdeps]\nDynamicHMC = \"bbc1\"\n[extras]\nTest = \"8dfe\"\n";
        assert_eq!(julia_dependencies(text), ["AbstractMCMC", "Optimization", "DynamicHMC", "Test"]);
    }
}
