//! A path whose folders are written as a namespace: `Terminal.Gui.App/ApplicationImpl.cs` for
//! `Terminal.Gui/App/ApplicationImpl.cs`, as C# and Java projects name a folder by the namespace
//! its code is in. When the path is not in the tree, a folder segment holding dots is read with
//! its last dots as folder breaks, one more at a time (`Terminal.Gui.App` is `Terminal.Gui/App`,
//! then `Terminal/Gui/App`): the first reading that exists is the path meant (80). The file's own
//! name (`View.Drawing.cs`) is never split, and a path that exists as written needs no reading.

use super::located::Located;
use super::Checker;

/// How many dots of one segment are tried as folder breaks.
const MAX_BREAKS: usize = 4;

impl Checker<'_> {
    /// The path meant by `path` written with namespace folders, when exactly that reading is in
    /// the tree.
    pub(super) fn namespace_folders(&self, path: &str) -> Option<Located> {
        let segments: Vec<&str> = path.split('/').filter(|s| !s.is_empty()).collect();
        let (_, folders) = segments.split_last()?;
        for (i, segment) in folders.iter().enumerate() {
            let dots: Vec<usize> = segment.match_indices('.').map(|(at, _)| at).collect();
            if dots.is_empty() || segment.starts_with('.') {
                continue;
            }
            for breaks in 1..=dots.len().min(MAX_BREAKS) {
                let mut spelled = segment.to_string();
                for &at in dots.iter().rev().take(breaks) {
                    spelled.replace_range(at..=at, "/");
                }
                if spelled.split('/').any(str::is_empty) {
                    continue;
                }
                let mut parts: Vec<&str> = segments.clone();
                parts[i] = &spelled;
                let reading = parts.join("/");
                if let Some(Located::Here { path: found, dir, confidence, .. }) = self.exists(&reading, 80, None) {
                    return Some(Located::Here {
                        note: Some(format!("{segment} written as a namespace, for the folder {spelled}")),
                        path: found,
                        dir,
                        confidence: confidence.min(80),
                    });
                }
            }
        }
        None
    }
}
