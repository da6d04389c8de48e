//! One server entry of a configuration, edited as text: `session --fix` wraps its command in
//! `schema-lint proxy`, `--unfix` takes it out. Only the bytes of the entry's `command` value and
//! of its `args` array change (items are inserted before the server's own, or removed, so its
//! own keep their bytes); comments, order, spacing and every other key stay as written. An array
//! inserted follows the file's layout (its items one per line where the array is written so).
//! JSON (with comments) is located through the crate's parser, which keeps every value's place;
//! Codex's TOML through `toml`'s spanned tables. Each edit is proven before it is returned: the
//! new text parses, and its tree is the old one with only that entry's command and arguments
//! changed, to exactly what was meant.

use super::config::{self, Shape};
use super::proxied;
use crate::syntax::document::{parse_jsonc, Node, NodeKind};
use crate::syntax::source::LineIndex;
use serde_json::Value;
use std::ops::Range;
use std::path::Path;
use toml::de::{DeTable, DeValue};

/// A string literal in the text: where it is, and what it says.
#[derive(Debug)]
struct Lit {
    at: Range<usize>,
    value: String,
}

/// An `args` array in the text.
#[derive(Debug)]
struct Array {
    /// The array, brackets included.
    at: Range<usize>,
    /// Its items (strings: an entry with another item is not edited).
    items: Vec<Lit>,
    /// What removes the member whole, when it is written as `--fix` inserts one.
    member: Option<Range<usize>>,
}

/// A server entry as written: what an edit changes, and where.
#[derive(Debug)]
struct Located {
    command: Lit,
    args: Option<Array>,
    /// Where an `args` member is inserted when there is none, and what goes before its array.
    insert: (usize, String),
}

/// What wrapping an entry found.
#[derive(Debug)]
pub enum Wrap {
    /// The text with the entry wrapped.
    Wrapped(String),
    /// The entry is already wrapped (by an earlier `--fix`, or by hand).
    Already,
}

/// A JSON (or TOML basic) string literal of `s`.
fn quote(s: &str) -> String {
    serde_json::to_string(s).unwrap_or_default()
}

/// Where each server of a file of `shape` is: the path of keys to each entry, in the order the
/// file has them (`~/.claude.json`: the user's, then this project's local servers).
///
/// # Errors
/// The file does not parse (named with line and column).
pub(super) fn entries(
    path: &Path,
    text: &str,
    shape: Shape,
    project: &Path,
) -> Result<Vec<Vec<String>>, String> {
    let tree = config::parse(path, text, shape)?;
    let mut out = Vec::new();
    for map in maps(shape, project).into_iter().rev() {
        let mut node = &tree;
        if map.iter().all(|k| match node.get(k) {
            Some(n) => {
                node = n;
                true
            }
            None => false,
        }) {
            if let Some(servers) = node.as_object() {
                for key in servers.keys() {
                    let mut at = map.clone();
                    at.push(key.clone());
                    out.push(at);
                }
            }
        }
    }
    Ok(out)
}

/// The path of keys to the server `key` the host reads from a file of `shape` (the local scope of
/// `~/.claude.json` over the user's), if the file has it.
///
/// # Errors
/// The file does not parse.
pub(super) fn find(
    path: &Path,
    text: &str,
    shape: Shape,
    project: &Path,
    key: &str,
) -> Result<Option<Vec<String>>, String> {
    Ok(entries(path, text, shape, project)?
        .into_iter()
        .rev()
        .find(|at| at.last().is_some_and(|k| k == key)))
}

/// The objects that hold servers in a file of `shape`, the one in force first.
fn maps(shape: Shape, project: &Path) -> Vec<Vec<String>> {
    let p = |keys: &[&str]| keys.iter().map(|k| (*k).to_owned()).collect::<Vec<_>>();
    match shape {
        Shape::McpServers => vec![p(&["mcpServers"])],
        Shape::ClaudeJson => vec![
            vec![
                "projects".to_owned(),
                project.to_string_lossy().into_owned(),
                "mcpServers".to_owned(),
            ],
            p(&["mcpServers"]),
        ],
        Shape::Servers => vec![p(&["servers"])],
        Shape::VscodeSettings => vec![p(&["mcp", "servers"])],
        Shape::CodexToml => vec![p(&["mcp_servers"])],
    }
}

/// `text` with the entry at `at` wrapped in `EXE proxy --for CLIENT -- COMMAND ARGS...`.
///
/// # Errors
/// The entry is not there, has no `command` (a URL server), arguments that are not strings, or
/// the edit cannot be proven.
pub(super) fn wrap(
    path: &Path,
    text: &str,
    shape: Shape,
    at: &[String],
    exe: &str,
    client: &str,
) -> Result<Wrap, String> {
    let l = locate(path, text, shape, at)?;
    let items: Vec<&str> = l
        .args
        .iter()
        .flat_map(|a| &a.items)
        .map(|i| &*i.value)
        .collect();
    if proxied::of(&l.command.value, &items).is_some() {
        return Ok(Wrap::Already);
    }
    let mut added: Vec<String> = proxied::arguments(client)
        .iter()
        .map(|a| quote(a))
        .collect();
    added.push(text[l.command.at.clone()].to_owned());
    let mut edits: Vec<(Range<usize>, String)> = vec![(l.command.at.clone(), quote(exe))];
    match &l.args {
        Some(a) if !a.items.is_empty() => {
            let sep = separator(text, a);
            let first = a.items[0].at.start;
            edits.push((first..first, format!("{}{sep}", added.join(&sep))));
        }
        Some(a) => {
            let inside = a.at.start + 1..a.at.end - 1;
            let range = if text[inside.clone()].trim().is_empty() {
                inside
            } else {
                inside.start..inside.start
            };
            edits.push((range, added.join(", ")));
        }
        None => {
            let (point, before) = &l.insert;
            edits.push((*point..*point, format!("{before}[{}]", added.join(", "))));
        }
    }
    let new = apply(text, edits);
    let mut args: Vec<String> = proxied::arguments(client).to_vec();
    args.push(l.command.value.clone());
    args.extend(items.iter().map(|s| (*s).to_owned()));
    prove(path, text, &new, shape, at, exe, Some(&args))?;
    Ok(Wrap::Wrapped(new))
}

/// `text` with the entry at `at` unwrapped: its command the first word after `--`, its
/// arguments the rest; `None` when it is not wrapped.
///
/// # Errors
/// The entry is not there, or the edit cannot be proven.
pub(super) fn unwrap(
    path: &Path,
    text: &str,
    shape: Shape,
    at: &[String],
) -> Result<Option<String>, String> {
    let l = match locate(path, text, shape, at) {
        Ok(l) => l,
        // A URL server, or one whose arguments are not all strings: not one `--fix` wrapped.
        Err(_) if !proxied_raw(path, text, shape, at) => return Ok(None),
        Err(why) => return Err(why),
    };
    let Some(a) = &l.args else { return Ok(None) };
    let items: Vec<&str> = a.items.iter().map(|i| &*i.value).collect();
    let Some(p) = proxied::of(&l.command.value, &items) else {
        return Ok(None);
    };
    let inner = &a.items[p.inner];
    let mut edits = vec![(l.command.at.clone(), text[inner.at.clone()].to_owned())];
    if let Some(next) = a.items.get(p.inner + 1) {
        edits.push((a.items[0].at.start..next.at.start, String::new()));
    } else if let Some(member) = &a.member {
        edits.push((member.clone(), String::new()));
    } else {
        edits.push((a.items[0].at.start..inner.at.end, String::new()));
    }
    let new = apply(text, edits);
    let rest: Vec<String> = items[p.inner + 1..]
        .iter()
        .map(|s| (*s).to_owned())
        .collect();
    let args = (a.items.get(p.inner + 1).is_some() || a.member.is_none()).then_some(&rest);
    prove(
        path,
        text,
        &new,
        shape,
        at,
        &inner.value,
        args.map(Vec::as_slice),
    )?;
    Ok(Some(new))
}

/// Whether the entry at `at`, read from the tree, is a wrapped one (for an entry the text edits
/// cannot locate).
fn proxied_raw(path: &Path, text: &str, shape: Shape, at: &[String]) -> bool {
    let Ok(tree) = config::parse(path, text, shape) else {
        return false;
    };
    let entry = at.iter().try_fold(&tree, |n, k| n.get(k));
    let command = entry.and_then(|e| e.get("command")).and_then(Value::as_str);
    let args = entry.map(|e| config::strings(e.get("args").unwrap_or(&Value::Null)));
    match (command, args) {
        (Some(c), Some(a)) => proxied::of(c, &a).is_some(),
        _ => false,
    }
}

/// The text between two items of `a` as the file writes it: between its first two, or a line
/// break and the first item's indentation where the array is written one item per line, else
/// `, `.
fn separator(text: &str, a: &Array) -> String {
    if let [first, second, ..] = &a.items[..] {
        let between = &text[first.at.end..second.at.start];
        if between.trim() == "," {
            return between.to_owned();
        }
    }
    let first = &a.items[0];
    let before = &text[a.at.start + 1..first.at.start];
    if before.contains('\n') {
        let newline = if before.contains("\r\n") {
            "\r\n"
        } else {
            "\n"
        };
        format!(",{newline}{}", indentation(text, first.at.start))
    } else {
        ", ".to_owned()
    }
}

/// The blanks between the start of the line of `at` and `at`, when only blanks are there.
fn indentation(text: &str, at: usize) -> String {
    let start = text[..at].rfind('\n').map_or(0, |i| i + 1);
    let lead = &text[start..at];
    if lead.chars().all(|c| c == ' ' || c == '\t') {
        lead.to_owned()
    } else {
        String::new()
    }
}

/// `text` with `edits` (ranges that do not overlap) applied.
fn apply(text: &str, mut edits: Vec<(Range<usize>, String)>) -> String {
    edits.sort_by_key(|(r, _)| std::cmp::Reverse((r.start, r.end)));
    let mut out = text.to_owned();
    for (range, with) in edits {
        out.replace_range(range, &with);
    }
    out
}

/// Proves an edit: `new` parses, and its tree is `old`'s with only the entry at `at` changed, its
/// command to `command` and its arguments to `args` (`None`: no `args` member).
fn prove(
    path: &Path,
    old: &str,
    new: &str,
    shape: Shape,
    at: &[String],
    command: &str,
    args: Option<&[String]>,
) -> Result<(), String> {
    let unproven = |why: String| format!("{}: the edit is not written: {why}", path.display());
    let mut expected = config::parse(path, old, shape)?;
    let got = config::parse(path, new, shape)
        .map_err(|e| unproven(format!("the edited text would not parse ({e})")))?;
    let entry = at
        .iter()
        .try_fold(&mut expected, |n, k| n.get_mut(k))
        .and_then(Value::as_object_mut)
        .ok_or_else(|| unproven("the entry is gone".to_owned()))?;
    entry.insert("command".to_owned(), Value::String(command.to_owned()));
    match args {
        Some(args) => {
            entry.insert("args".to_owned(), serde_json::json!(args));
        }
        None => {
            entry.remove("args");
        }
    }
    if got == expected {
        Ok(())
    } else {
        Err(unproven(
            "the edited text would change more than the entry's command and arguments".to_owned(),
        ))
    }
}

/// The entry at `at` in `text`, with the places an edit needs.
fn locate(path: &Path, text: &str, shape: Shape, at: &[String]) -> Result<Located, String> {
    let located = if shape == Shape::CodexToml {
        locate_toml(text, at)
    } else {
        locate_json(path, text, at)?
    };
    located.ok_or_else(|| {
        format!(
            "{}: `{}` has no `command` string with `args` of strings to edit",
            path.display(),
            at.last().map_or("", String::as_str)
        )
    })
}

fn locate_json(path: &Path, text: &str, at: &[String]) -> Result<Option<Located>, String> {
    let root = parse_jsonc(text).map_err(|e| {
        let lc = LineIndex::new(text).line_col(text, e.span.start);
        format!(
            "{}:{}:{}: {}",
            path.display(),
            lc.line,
            lc.column,
            e.message
        )
    })?;
    let Some(entry) = at.iter().try_fold(&root, |n, k| n.get(k)) else {
        return Ok(None);
    };
    let Some(command) = entry.member("command") else {
        return Ok(None);
    };
    let NodeKind::String(value) = &command.value.kind else {
        return Ok(None);
    };
    let command_at = command.value.span.start..command.value.span.end;
    let lead = indentation(text, command.key_span.start);
    let starts_line = text[..command.key_span.start]
        .rfind('\n')
        .map_or(command.key_span.start, |i| i + 1)
        + lead.len()
        == command.key_span.start;
    let before = if starts_line {
        let newline = if text.contains("\r\n") { "\r\n" } else { "\n" };
        format!(",{newline}{lead}\"args\": ")
    } else {
        ", \"args\": ".to_owned()
    };
    let insert = (command_at.end, before);
    let args = match entry.member("args") {
        None => None,
        Some(m) => {
            let Some(items) = json_strings(&m.value) else {
                return Ok(None);
            };
            let start = m.value.span.start;
            let member = (text.get(insert.0..start) == Some(insert.1.as_str()))
                .then_some(insert.0..m.value.span.end);
            Some(Array {
                at: start..m.value.span.end,
                items,
                member,
            })
        }
    };
    Ok(Some(Located {
        command: Lit {
            at: command_at,
            value: value.to_string(),
        },
        args,
        insert,
    }))
}

/// The items of a JSON array of strings.
fn json_strings(node: &Node) -> Option<Vec<Lit>> {
    node.as_array()?
        .iter()
        .map(|item| {
            item.as_str().map(|s| Lit {
                at: item.span.start..item.span.end,
                value: s.to_owned(),
            })
        })
        .collect()
}

fn locate_toml(text: &str, at: &[String]) -> Option<Located> {
    let root = DeTable::parse(text).ok()?;
    let mut table: &DeTable<'_> = root.get_ref();
    let (last, parents) = at.split_last()?;
    for k in parents {
        table = match table.get(k.as_str())?.get_ref() {
            DeValue::Table(t) => t,
            _ => return None,
        };
    }
    let DeValue::Table(entry) = table.get(last.as_str())?.get_ref() else {
        return None;
    };
    let (key, command) = entry.get_key_value("command")?;
    let DeValue::String(value) = command.get_ref() else {
        return None;
    };
    let command_at = command.span();
    // In an inline table (`{ command = "x" }`) the value is followed by `,` or `}`; in a table of
    // its own, by the end of its line.
    let after = text[command_at.end..].trim_start_matches([' ', '\t']);
    let insert = if after.starts_with([',', '}']) {
        (command_at.end, ", args = ".to_owned())
    } else {
        let line_start = text[..key.span().start].rfind('\n').map_or(0, |i| i + 1);
        let prefix = &text[line_start..key.span().start];
        let mut end = text[command_at.end..]
            .find('\n')
            .map_or(text.len(), |i| command_at.end + i);
        let newline = if end > 0 && text.as_bytes()[end - 1] == b'\r' {
            end -= 1;
            "\r\n"
        } else {
            "\n"
        };
        (end, format!("{newline}{prefix}args = "))
    };
    let args = match entry.get("args") {
        None => None,
        Some(a) => {
            let DeValue::Array(items) = a.get_ref() else {
                return None;
            };
            let items = items
                .iter()
                .map(|i| match i.get_ref() {
                    DeValue::String(s) => Some(Lit {
                        at: i.span(),
                        value: s.to_string(),
                    }),
                    _ => None,
                })
                .collect::<Option<Vec<_>>>()?;
            let span = a.span();
            let member = (text.get(insert.0..span.start) == Some(insert.1.as_str()))
                .then_some(insert.0..span.end);
            Some(Array {
                at: span,
                items,
                member,
            })
        }
    };
    Some(Located {
        command: Lit {
            at: command_at,
            value: value.to_string(),
        },
        args,
        insert,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn round(shape: Shape, text: &str, key: &str) -> (String, String) {
        let path = Path::new("c");
        let project = Path::new("/p");
        let at = find(path, text, shape, project, key).unwrap().unwrap();
        let Wrap::Wrapped(wrapped) = wrap(path, text, shape, &at, "/bin/schema-lint", "x").unwrap()
        else {
            panic!("not wrapped")
        };
        assert!(matches!(
            wrap(path, &wrapped, shape, &at, "/bin/schema-lint", "x").unwrap(),
            Wrap::Already
        ));
        let back = unwrap(path, &wrapped, shape, &at).unwrap().unwrap();
        assert_eq!(back, text, "unwrapped: the bytes as they were");
        assert_eq!(unwrap(path, &back, shape, &at).unwrap(), None);
        (wrapped, back)
    }

    #[test]
    fn json_entries_are_wrapped_in_the_files_layout_and_unwrapped_to_their_bytes() {
        let text = "{\n  // mine\n  \"mcpServers\": {\n    \"a\": {\n      \"command\": \"py\",\n      \"args\": [\n        \"s.py\",\n        \"${X}\"\n      ],\n      \"env\": {\"K\": \"v\"}\n    },\n    \"b\": {\"command\": \"b\"}\n  }\n}\n";
        let (w, _) = round(Shape::McpServers, text, "a");
        assert!(w.contains(
            "\"command\": \"/bin/schema-lint\",\n      \"args\": [\n        \"proxy\",\n        \"--for\",\n        \"x\",\n        \"--\",\n        \"py\",\n        \"s.py\","
        ), "{w}");
        assert!(w.contains("// mine") && w.contains("\"env\": {\"K\": \"v\"}"));
        let (w, _) = round(Shape::McpServers, text, "b");
        assert!(
            w.contains(r#""b": {"command": "/bin/schema-lint", "args": ["proxy", "--for", "x", "--", "b"]}"#),
            "{w}"
        );
        let pretty =
            "{\n  \"mcpServers\": {\n    \"b\": {\n      \"command\": \"b\"\n    }\n  }\n}";
        let (w, _) = round(Shape::McpServers, pretty, "b");
        assert!(
            w.contains("\"command\": \"/bin/schema-lint\",\n      \"args\": [\"proxy\""),
            "{w}"
        );
        round(
            Shape::Servers,
            r#"{"servers": {"s": {"type": "stdio", "command": "c", "args": []}}}"#,
            "s",
        );
    }

    #[test]
    fn the_local_scope_of_claude_json_is_the_one_edited() {
        let text = r#"{"mcpServers": {"a": {"command": "u"}}, "projects": {"/p": {"mcpServers": {"a": {"command": "l", "args": ["1"]}}}}}"#;
        let (w, _) = round(Shape::ClaudeJson, text, "a");
        assert!(
            w.starts_with(r#"{"mcpServers": {"a": {"command": "u"}}"#),
            "{w}"
        );
    }

    #[test]
    fn toml_entries_are_edited_as_text() {
        let text = "# codex\n[mcp_servers.a]\ncommand = 'C:\\py' # the interpreter\nenv = { K = \"v\" }\n\n[mcp_servers.b]\ncommand = \"b\"\nargs = [\"1\", \"2\"]\n";
        let (w, _) = round(Shape::CodexToml, text, "a");
        assert!(
            w.contains("command = \"/bin/schema-lint\" # the interpreter\nargs = [\"proxy\", \"--for\", \"x\", \"--\", 'C:\\py']\nenv"),
            "{w}"
        );
        let (w, _) = round(Shape::CodexToml, text, "b");
        assert!(
            w.contains("args = [\"proxy\", \"--for\", \"x\", \"--\", \"b\", \"1\", \"2\"]"),
            "{w}"
        );
        round(
            Shape::CodexToml,
            "mcp_servers.c = { command = \"c\" }\n",
            "c",
        );
        round(Shape::CodexToml, "[mcp_servers]\nd.command = \"d\"\n", "d");
    }
}
