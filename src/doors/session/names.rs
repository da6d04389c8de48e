//! The name each host gives a server's tool in the request it sends its model, read from the
//! hosts' open code where there is some:
//!
//! - Claude Code: `mcp__<key>__<tool>`, the key the user chose for the server (Claude Code's MCP
//!   documentation; the Anthropic API then refuses a name over 64 characters:
//!   anthropics/claude-code#2412). Not cut.
//! - gemini-cli: `generateValidName(`${key}_${tool}`)` (google-gemini/gemini-cli,
//!   `packages/core/src/tools/mcp-tool.ts`): `mcp_` put first, every character outside
//!   `[a-zA-Z0-9_\-.:]` written `_`, `_` put first if it does not start with a letter or `_`,
//!   and a name over 63 characters cut to its first 30, `...` and its last 30.
//! - Codex: `mcp__<server>__<tool>` with every character outside `[a-zA-Z0-9_-]` written `_`;
//!   over 64 characters, its first 24 then the SHA-1 of the raw name in hex (openai/codex,
//!   `codex-rs/core/src/mcp_connection_manager.rs`, `qualify_tools`).
//! - VS Code: the prefix `mcp_` + the server's label lower-cased, each run outside
//!   `[a-z0-9_.-]` written `_`, cut to 13 characters, then `_` (a number before it for a label
//!   already taken); then the tool's name with `.` written `_`, the whole cut to 64
//!   (microsoft/vscode, `src/vs/workbench/contrib/mcp/common/mcpServer.ts`, `McpTool`, and
//!   `mcpService.ts`, `McpPrefixGenerator`). Newer versions take the label from the server's
//!   announced title; the key is used here.
//! - Cursor, Claude Desktop, Windsurf: their code is not open; the tool's own name is used, as
//!   their errors quote it (`tools.585.FrontendRemoteMcpToolDefinition.name`, Claude Desktop).

use super::Host;
use std::collections::BTreeSet;
use std::fmt::Write as _;

/// Names tools as `host` does, remembering what a host needs across servers (VS Code's prefixes
/// taken).
#[derive(Debug)]
pub struct Namer {
    host: Host,
    prefixes: BTreeSet<String>,
}

impl Namer {
    /// A namer for one request of `host`.
    #[must_use]
    pub fn new(host: Host) -> Self {
        Self {
            host,
            prefixes: BTreeSet::new(),
        }
    }

    /// The prefix VS Code gives the server `key` (taken once per request).
    fn vscode_prefix(&mut self, key: &str) -> String {
        let mut base = String::from("mcp_");
        let mut last_bad = false;
        for c in key.to_lowercase().chars() {
            if c.is_ascii_lowercase() || c.is_ascii_digit() || matches!(c, '_' | '.' | '-') {
                base.push(c);
                last_bad = false;
            } else if !last_bad {
                base.push('_');
                last_bad = true;
            }
        }
        let base: String = base.chars().take(18 - 1).collect();
        let mut prefix = format!("{base}_");
        let mut i = 2;
        while self.prefixes.contains(&prefix) {
            prefix = format!("{base}{i}_");
            i += 1;
        }
        self.prefixes.insert(prefix.clone());
        prefix
    }

    /// The prefix of every tool of server `key` (called once per server, in order).
    #[must_use]
    pub fn server(&mut self, key: &str) -> ServerNames {
        let prefix = match self.host {
            Host::Vscode => self.vscode_prefix(key),
            _ => String::new(),
        };
        ServerNames {
            host: self.host,
            key: key.to_owned(),
            prefix,
        }
    }
}

/// Names the tools of one server.
#[derive(Debug)]
pub struct ServerNames {
    host: Host,
    key: String,
    prefix: String,
}

impl ServerNames {
    /// The name the host sends its model for `tool`.
    #[must_use]
    pub fn name(&self, tool: &str) -> String {
        match self.host {
            Host::ClaudeCode => format!("mcp__{}__{tool}", self.key),
            Host::GeminiCli => gemini(&format!("{}_{tool}", self.key)),
            Host::Codex => codex(&self.key, tool),
            Host::Vscode => format!("{}{tool}", self.prefix)
                .replace('.', "_")
                .chars()
                .take(64)
                .collect(),
            Host::Cursor | Host::ClaudeDesktop | Host::Windsurf => tool.to_owned(),
        }
    }
}

/// gemini-cli's `generateValidName`.
fn gemini(name: &str) -> String {
    let mut valid = if name.starts_with("mcp_") {
        name.to_owned()
    } else {
        format!("mcp_{name}")
    };
    valid = valid
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.' | ':') {
                c
            } else {
                '_'
            }
        })
        .collect();
    if !valid.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_') {
        valid.insert(0, '_');
    }
    // JavaScript counts UTF-16 units; after the mapping above every character is ASCII.
    if valid.len() > 63 {
        valid = format!("{}...{}", &valid[..30], &valid[valid.len() - 30..]);
    }
    valid
}

/// Codex's `qualify_tools`.
fn codex(server: &str, tool: &str) -> String {
    let raw = format!("mcp__{server}__{tool}");
    let mut name: String = raw
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '_' || c == '-' {
                c
            } else {
                '_'
            }
        })
        .collect();
    if name.len() > 64 {
        let hash = sha1_hex(raw.as_bytes());
        name = format!("{}{hash}", &name[..64 - hash.len()]);
    }
    name
}

/// SHA-1 of `data` in lower-case hex (FIPS 180-4), as Codex hashes a long name.
#[must_use]
#[allow(
    clippy::many_single_char_names,
    reason = "the standard's names for the words of the state"
)]
pub fn sha1_hex(data: &[u8]) -> String {
    let mut h: [u32; 5] = [
        0x6745_2301,
        0xEFCD_AB89,
        0x98BA_DCFE,
        0x1032_5476,
        0xC3D2_E1F0,
    ];
    let mut message = data.to_vec();
    let bits = (data.len() as u64).wrapping_mul(8);
    message.push(0x80);
    while message.len() % 64 != 56 {
        message.push(0);
    }
    message.extend_from_slice(&bits.to_be_bytes());
    for block in message.chunks(64) {
        let mut w = [0u32; 80];
        for (i, word) in block.chunks(4).enumerate() {
            w[i] = u32::from_be_bytes([word[0], word[1], word[2], word[3]]);
        }
        for i in 16..80 {
            w[i] = (w[i - 3] ^ w[i - 8] ^ w[i - 14] ^ w[i - 16]).rotate_left(1);
        }
        let [mut a, mut b, mut c, mut d, mut e] = h;
        for (i, wi) in w.iter().enumerate() {
            let (f, k) = match i {
                0..=19 => ((b & c) | (!b & d), 0x5A82_7999),
                20..=39 => (b ^ c ^ d, 0x6ED9_EBA1),
                40..=59 => ((b & c) | (b & d) | (c & d), 0x8F1B_BCDC),
                _ => (b ^ c ^ d, 0xCA62_C1D6),
            };
            let t = a
                .rotate_left(5)
                .wrapping_add(f)
                .wrapping_add(e)
                .wrapping_add(k)
                .wrapping_add(*wi);
            e = d;
            d = c;
            c = b.rotate_left(30);
            b = a;
            a = t;
        }
        for (x, y) in h.iter_mut().zip([a, b, c, d, e]) {
            *x = x.wrapping_add(y);
        }
    }
    h.iter().fold(String::with_capacity(40), |mut hex, x| {
        let _ = write!(hex, "{x:08x}");
        hex
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sha1_matches_the_standard_vectors() {
        assert_eq!(sha1_hex(b"abc"), "a9993e364706816aba3e25717850c26c9cd0d89d");
        assert_eq!(sha1_hex(b""), "da39a3ee5e6b4b0d3255bfef95601890afd80709");
        assert_eq!(
            sha1_hex(b"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
            "84983e441c3bd26ebaae4aa1f95129e5e54670f1"
        );
    }

    #[test]
    fn each_host_names_a_tool_its_way() {
        let name = |host, key: &str, tool: &str| Namer::new(host).server(key).name(tool);
        assert_eq!(name(Host::ClaudeCode, "gh", "search"), "mcp__gh__search");
        assert_eq!(
            name(Host::GeminiCli, "gh", "search files"),
            "mcp_gh_search_files"
        );
        assert_eq!(name(Host::Codex, "my.srv", "a.b"), "mcp__my_srv__a_b");
        assert_eq!(
            name(Host::Vscode, "My Server!", "get.time"),
            "mcp_my_server__get_time"
        );
        assert_eq!(name(Host::Cursor, "x", "t"), "t");
        let long = "t".repeat(70);
        let g = name(Host::GeminiCli, "srv", &long);
        assert_eq!(g.len(), 63);
        assert!(g.starts_with("mcp_srv_ttt") && g.contains("..."));
        let c = name(Host::Codex, "srv", &long);
        assert_eq!(c.len(), 64);
        assert!(c.starts_with("mcp__srv__ttt"));
        assert_eq!(name(Host::Vscode, "s", &long).len(), 64);
        assert_eq!(name(Host::ClaudeCode, "srv", &long).len(), 80);
        let mut vs = Namer::new(Host::Vscode);
        assert_eq!(vs.server("foo").name("t"), "mcp_foo_t");
        assert_eq!(vs.server("foo").name("t"), "mcp_foo2_t");
        let long_key = Namer::new(Host::Vscode)
            .server("a-very-long-server-key")
            .name("t");
        assert_eq!(long_key, "mcp_a-very-long-s_t");
    }
}
