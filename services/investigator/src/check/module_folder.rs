//! A module file that became a folder of modules (`handlers.rs` → `handlers/mod.rs`,
//! `presets.py` → `presets/__init__.py`, `client.js` → `client/index.ts`): the folder it would
//! become, which files in it count (files of its language), and what answers to its name
//! there now. The history check and the tree-only check each decide from their own evidence
//! whether the folder came; this says what the folder and its successor are.

use crate::index::basename;

use super::common::same_kind_of_file;

/// Extensions of languages whose module file can become a folder of its name.
const MODULE_EXTS: &[&str] = &["rs", "py", "ts", "tsx", "mts", "js", "jsx", "mjs", "cjs", "go", "rb", "ex", "exs"];

/// The file that answers to a folder's name as a module, by language.
const ENTRY_FILES: &[&str] =
    &["mod.rs", "__init__.py", "index.ts", "index.tsx", "index.mts", "index.js", "index.jsx", "index.mjs", "index.cjs"];

/// (stem, extension) of a module file of [`MODULE_EXTS`], else `None`.
fn module_file(path: &str) -> Option<(&str, &str)> {
    let (stem, ext) = basename(path).rsplit_once('.')?;
    (!stem.is_empty() && MODULE_EXTS.contains(&ext)).then_some((stem, ext))
}

/// The folder `dir/name` a module file `dir/name.ext` would become.
pub(super) struct ModuleFolder<'p> {
    /// `dir/name`, without a trailing slash.
    pub(super) folder: String,
    ext: &'p str,
}

impl<'p> ModuleFolder<'p> {
    /// For a module file of a language that can become a folder; `None` for any other path.
    pub(super) fn of(path: &'p str) -> Option<Self> {
        let (stem, ext) = module_file(path)?;
        let folder = match path.rsplit_once('/') {
            Some((dir, _)) => format!("{dir}/{stem}"),
            None => stem.to_owned(),
        };
        Some(ModuleFolder { folder, ext })
    }

    /// Whether `file` is a file of the module's language ([`same_kind_of_file`]) inside the folder.
    pub(super) fn holds(&self, file: &str) -> bool {
        file.strip_prefix(self.folder.as_str()).is_some_and(|rest| rest.starts_with('/')) && self.same_language(file)
    }

    /// What now answers to the module's name: the folder's entry file when `exists` says it
    /// has one (`(entry, false)`), else the folder itself (`(folder, true)`).
    pub(super) fn successor(&self, exists: impl Fn(&str) -> bool) -> (String, bool) {
        let entry =
            ENTRY_FILES.iter().map(|e| format!("{}/{e}", self.folder)).find(|e| self.same_language(e) && exists(e));
        match entry {
            Some(entry) => (entry, false),
            None => (self.folder.clone(), true),
        }
    }

    fn same_language(&self, file: &str) -> bool {
        module_file(file).is_some_and(|(_, other)| same_kind_of_file(self.ext, other))
    }
}

#[cfg(test)]
mod tests {
    use super::ModuleFolder;

    #[test]
    fn the_folder_is_the_module_path_without_its_extension() {
        assert_eq!(ModuleFolder::of("src/step.rs").unwrap().folder, "src/step");
        assert_eq!(ModuleFolder::of("presets.py").unwrap().folder, "presets");
        // not a module of a language that makes folders of modules
        assert!(ModuleFolder::of("docs/guide.md").is_none());
        assert!(ModuleFolder::of("src/.rs").is_none());
    }

    #[test]
    fn only_files_of_its_language_inside_the_folder_count() {
        let m = ModuleFolder::of("src/client.js").unwrap();
        assert!(m.holds("src/client/index.ts"));
        assert!(m.holds("src/client/deep/api.tsx"));
        assert!(!m.holds("src/client/README.md"));
        assert!(!m.holds("src/client.ts"));
        assert!(!m.holds("src/clients/api.ts"));
    }

    #[test]
    fn the_successor_is_the_entry_file_of_its_language_or_the_folder() {
        let rust = ModuleFolder::of("src/step.rs").unwrap();
        assert_eq!(rust.successor(|f| f == "src/step/mod.rs"), ("src/step/mod.rs".to_owned(), false));
        // an index.ts is no entry of a Rust module
        assert_eq!(rust.successor(|f| f == "src/step/index.ts"), ("src/step".to_owned(), true));
        let py = ModuleFolder::of("app/presets.py").unwrap();
        assert_eq!(py.successor(|_| true), ("app/presets/__init__.py".to_owned(), false));
    }
}
