//! A JavaScript library named the way its users write it (`Leaflet.js`, `Moment.js`, `Chart.js`):
//! a bare `Name.js` no file of the repository was ever called is the library when a
//! `package.json` of the repository depends on it (`leaflet`, `moment`, `chart.js`), not a file
//! the memory got wrong.

use super::Checker;

/// The `package.json` fields that list what a package depends on.
const DEPENDENCY_FIELDS: &[&str] = &["dependencies", "devDependencies", "peerDependencies", "optionalDependencies"];

impl Checker<'_> {
    /// For a bare `Name.js`, the first `package.json` (by path) that depends on the library of
    /// that name, and the package name it lists; `None` for anything else.
    pub(super) fn js_library(&self, name: &str) -> Option<(String, String)> {
        if name.contains('/') {
            return None;
        }
        let stem = name.strip_suffix(".js").or_else(|| name.strip_suffix(".JS"))?.to_ascii_lowercase();
        if stem.is_empty() {
            return None;
        }
        let wanted = [stem.clone(), format!("{stem}.js"), format!("{stem}js")];
        let mut manifests: Vec<&str> =
            self.index.files_named("package.json").iter().map(|&i| self.index.file_at(i).path.as_str()).collect();
        manifests.sort_unstable();
        manifests.into_iter().find_map(|path| {
            let text = self.index.read_text(path)?;
            let json: serde_json::Value = serde_json::from_str(&text).ok()?;
            let listed = DEPENDENCY_FIELDS
                .iter()
                .filter_map(|field| json.get(field)?.as_object())
                .flat_map(|deps| deps.keys())
                .find(|key| wanted.iter().any(|w| w == &key.to_ascii_lowercase()))?;
            Some((path.to_owned(), listed.clone()))
        })
    }
}
