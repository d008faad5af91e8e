//! Names in text: a path's last component and the identifier-like tokens of a text. A leaf:
//! every other module may use it, it uses none.

/// The last component of a `/`-separated path (the whole path when it has none).
pub fn basename(path: &str) -> &str {
    path.rsplit('/').next().unwrap_or(path)
}

/// The folder of a `/`-separated path (`""` for a name at the root); a trailing `/` is no
/// level of its own (`a/b/` is in `a`).
pub fn folder(path: &str) -> &str {
    path.trim_end_matches('/').rsplit_once('/').map_or("", |(up, _)| up)
}

/// Identifier-like tokens of a text.
pub fn identifiers(text: &str) -> impl Iterator<Item = &str> {
    text.split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .filter(|t| !t.is_empty() && !t.as_bytes()[0].is_ascii_digit())
}
