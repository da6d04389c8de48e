//! JSON Schema dialects (drafts) and how a document names one.

use std::fmt;
use std::str::FromStr;

/// A JSON Schema dialect the linter knows, ordered from oldest to newest.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Draft {
    /// Draft 4 (draft-04).
    Draft4,
    /// Draft 6 (draft-06).
    Draft6,
    /// Draft 7 (draft-07).
    Draft7,
    /// Draft 2019-09.
    Draft201909,
    /// Draft 2020-12.
    Draft202012,
}

impl Draft {
    /// Every known dialect, oldest first.
    pub const ALL: [Draft; 5] = [
        Draft::Draft4,
        Draft::Draft6,
        Draft::Draft7,
        Draft::Draft201909,
        Draft::Draft202012,
    ];

    /// The short name used on the command line and in configuration.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Draft::Draft4 => "draft4",
            Draft::Draft6 => "draft6",
            Draft::Draft7 => "draft7",
            Draft::Draft201909 => "2019-09",
            Draft::Draft202012 => "2020-12",
        }
    }

    /// The canonical `$schema` URI of the dialect's meta-schema.
    #[must_use]
    pub fn uri(self) -> &'static str {
        match self {
            Draft::Draft4 => "http://json-schema.org/draft-04/schema#",
            Draft::Draft6 => "http://json-schema.org/draft-06/schema#",
            Draft::Draft7 => "http://json-schema.org/draft-07/schema#",
            Draft::Draft201909 => "https://json-schema.org/draft/2019-09/schema",
            Draft::Draft202012 => "https://json-schema.org/draft/2020-12/schema",
        }
    }

    /// The keyword that declares a resource's identifier (`id` before draft-06).
    #[must_use]
    pub fn id_keyword(self) -> &'static str {
        if self == Draft::Draft4 {
            "id"
        } else {
            "$id"
        }
    }

    /// Whether `$id` may carry a plain-name fragment (`#foo`); 2019-09 moved that to `$anchor`.
    #[must_use]
    pub fn allows_id_fragment(self) -> bool {
        self < Draft::Draft201909
    }

    /// The dialect a `$schema` value names: the known meta-schema URIs, with or without the
    /// trailing empty fragment, over http or https.
    #[must_use]
    pub fn from_schema_uri(uri: &str) -> Option<Draft> {
        let uri = uri.strip_suffix('#').unwrap_or(uri);
        let rest = uri
            .strip_prefix("https://")
            .or_else(|| uri.strip_prefix("http://"))?;
        match rest {
            "json-schema.org/draft-04/schema" => Some(Draft::Draft4),
            "json-schema.org/draft-06/schema" => Some(Draft::Draft6),
            "json-schema.org/draft-07/schema" => Some(Draft::Draft7),
            "json-schema.org/draft/2019-09/schema" => Some(Draft::Draft201909),
            "json-schema.org/draft/2020-12/schema" => Some(Draft::Draft202012),
            _ => None,
        }
    }
}

impl fmt::Display for Draft {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Draft {
    type Err = String;

    /// A short name (`draft7`, `draft-07`, `2020-12`, ...) or a `$schema` URI.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let by_name = match s.to_ascii_lowercase().as_str() {
            "draft4" | "draft-04" | "draft04" | "4" => Some(Draft::Draft4),
            "draft6" | "draft-06" | "draft06" | "6" => Some(Draft::Draft6),
            "draft7" | "draft-07" | "draft07" | "7" => Some(Draft::Draft7),
            "2019-09" | "draft2019-09" | "draft-2019-09" => Some(Draft::Draft201909),
            "2020-12" | "draft2020-12" | "draft-2020-12" => Some(Draft::Draft202012),
            _ => None,
        };
        by_name.or_else(|| Draft::from_schema_uri(s)).ok_or_else(|| {
            format!(
                "unknown dialect `{s}`: expected one of draft4, draft6, draft7, 2019-09, 2020-12, or a $schema URI"
            )
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_uris() {
        for d in Draft::ALL {
            assert_eq!(d.name().parse::<Draft>(), Ok(d));
            assert_eq!(d.uri().parse::<Draft>(), Ok(d));
            assert_eq!(Draft::from_schema_uri(d.uri()), Some(d));
        }
        assert_eq!(
            Draft::from_schema_uri("https://json-schema.org/draft-07/schema"),
            Some(Draft::Draft7)
        );
        assert_eq!(
            Draft::from_schema_uri("https://json.schemastore.org/tsconfig"),
            None
        );
        assert!("draft5".parse::<Draft>().is_err());
    }
}
