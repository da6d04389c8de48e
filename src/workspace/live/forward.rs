//! One HTTP request passed on to a server the user named, for the recording proxy (`schema-lint
//! record --listen`) and the porting proxy over Streamable HTTP (`schema-lint proxy --url`): the
//! request as the host sent it, the answer as the server sent it, its body a reader that yields
//! bytes as they arrive. Like the `--url` transport, it follows no redirect (a 3xx goes back to
//! the host) and reports an HTTP error status as an answer, not a failure.

use std::io::Read;
use std::time::Duration;

/// What the server answered.
pub struct Forwarded {
    /// The HTTP status code.
    pub status: u16,
    /// Its reason phrase, where the status has a standard one.
    pub reason: &'static str,
    /// The response headers, as sent (names as the server spelled them, values that are text).
    pub headers: Vec<(String, String)>,
    /// The body, as it arrives.
    pub body: Box<dyn Read + Send>,
}

/// A client for the proxy's requests: no redirect, no status as an error, no time limit (an
/// event stream may stay open as long as the host keeps it). Cheap to clone.
#[derive(Clone)]
pub struct Client(ureq::Agent);

impl Default for Client {
    fn default() -> Self {
        Self(
            ureq::Agent::config_builder()
                .http_status_as_error(false)
                .max_redirects(0)
                .build()
                .into(),
        )
    }
}

impl Client {
    /// A client for schema-lint's own requests (not a host's passed on): its user agent, and a
    /// connection that is not made within `connect` fails (an answer may still take as long as
    /// the server takes).
    #[must_use]
    pub fn own(connect: Duration) -> Self {
        Self(
            ureq::Agent::config_builder()
                .http_status_as_error(false)
                .max_redirects(0)
                .timeout_connect(Some(connect))
                .user_agent(concat!("schema-lint/", env!("CARGO_PKG_VERSION")))
                .build()
                .into(),
        )
    }
}

/// The methods of MCP over HTTP.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Method {
    /// A message to the server.
    Post,
    /// The stream of the server's own messages.
    Get,
    /// The end of a session.
    Delete,
}

/// Sends `method` (`POST`, `GET` or `DELETE`) to `url` with `headers` and, for `POST`, `body`.
///
/// # Errors
/// The method is another one, or the server could not be reached (in words).
pub fn forward(
    client: &Client,
    method: &str,
    url: &str,
    headers: &[(String, String)],
    body: &[u8],
) -> Result<Forwarded, String> {
    let method = match method {
        "POST" => Method::Post,
        "GET" => Method::Get,
        "DELETE" => Method::Delete,
        _ => return Err(format!("`{method}` is not an MCP method over HTTP")),
    };
    send(client, method, url, headers, body).map_err(|e| e.to_string())
}

/// [`forward`], with the method checked and the failure as ureq says it (for
/// [`super::http::transport_error`] to word).
///
/// # Errors
/// The server could not be reached.
pub fn send(
    client: &Client,
    method: Method,
    url: &str,
    headers: &[(String, String)],
    body: &[u8],
) -> Result<Forwarded, ureq::Error> {
    let agent = &client.0;
    let response = match method {
        Method::Post => {
            let mut r = agent.post(url);
            for (name, value) in headers {
                r = r.header(name, value);
            }
            r.send(body)
        }
        Method::Get | Method::Delete => {
            let mut r = if method == Method::Get {
                agent.get(url)
            } else {
                agent.delete(url)
            };
            for (name, value) in headers {
                r = r.header(name, value);
            }
            r.call()
        }
    };
    let response = response?;
    let status = response.status();
    let headers = response
        .headers()
        .iter()
        .filter_map(|(name, value)| {
            Some((name.as_str().to_owned(), value.to_str().ok()?.to_owned()))
        })
        .collect();
    Ok(Forwarded {
        status: status.as_u16(),
        reason: status.canonical_reason().unwrap_or(""),
        headers,
        body: Box::new(response.into_body().into_reader()),
    })
}
