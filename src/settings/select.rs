//! Which rules run: `--select` / `--ignore` / `--extend-select` (codes, names or code prefixes),
//! and the in-document `x-schema-lint-ignore` keyword.

use crate::diagnostic::meta::{self, RuleMeta};
use crate::syntax::document::Node;

/// Whether `selector` names the rule: its code (any case), its name, a code prefix (`SL5`), or
/// `ALL`.
#[must_use]
pub fn matches(selector: &str, meta: &RuleMeta) -> bool {
    let s = selector.trim();
    s.eq_ignore_ascii_case("ALL")
        || s == meta.name
        || (s.len() >= 2
            && meta.code.len() >= s.len()
            && meta.code[..s.len()].eq_ignore_ascii_case(s))
}

/// The rule selection of a run.
#[derive(Clone, Debug, Default)]
pub struct Selection {
    /// Replaces the default set when given.
    pub select: Option<Vec<String>>,
    /// Rules to run besides the selected ones (how rules that are off by default are turned on).
    pub extend_select: Vec<String>,
    /// Rules not to run, whatever else selects them.
    pub ignore: Vec<String>,
}

impl Selection {
    /// The selection given on the command line (or by an editor), over the one of the
    /// configuration: `select` replaces the configuration's, `extend-select` and `ignore` add
    /// to its.
    #[must_use]
    pub fn over_config(
        select: Option<&[String]>,
        extend_select: &[String],
        ignore: &[String],
        config: Option<&crate::settings::config::Config>,
    ) -> Self {
        Self {
            select: select
                .map(<[String]>::to_vec)
                .or_else(|| config.and_then(|c| c.select.clone())),
            extend_select: extend_select
                .iter()
                .chain(config.map(|c| &c.extend_select).into_iter().flatten())
                .cloned()
                .collect(),
            ignore: ignore
                .iter()
                .chain(config.map(|c| &c.ignore).into_iter().flatten())
                .cloned()
                .collect(),
        }
    }

    /// Whether the rule runs. `SL100` and `SL901` report on the tool itself and always do.
    #[must_use]
    pub fn enabled(&self, meta: &RuleMeta) -> bool {
        if meta.code == "SL100" || meta.code == "SL901" {
            return true;
        }
        let selected = self
            .select
            .as_ref()
            .map_or(meta.default_enabled, |s| s.iter().any(|x| matches(x, meta)))
            || self.extend_select.iter().any(|x| matches(x, meta));
        selected && !self.ignore.iter().any(|x| matches(x, meta))
    }

    /// Selectors that name no rule, for a clear usage error.
    #[must_use]
    pub fn unknown(&self) -> Vec<String> {
        let all = meta::ALL;
        self.select
            .iter()
            .flatten()
            .chain(&self.extend_select)
            .chain(&self.ignore)
            .filter(|s| !all.iter().any(|m| matches(s, m)))
            .cloned()
            .collect()
    }
}

/// The selectors an `x-schema-lint-ignore` member holds: a string or an array of strings.
#[must_use]
pub fn suppressions(node: &Node) -> Vec<&str> {
    match node.get("x-schema-lint-ignore") {
        Some(n) => match n.as_array() {
            Some(items) => items.iter().filter_map(Node::as_str).collect(),
            None => n.as_str().into_iter().collect(),
        },
        None => Vec::new(),
    }
}
