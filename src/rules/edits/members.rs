//! Edits of an object's members that keep the file's layout.

use crate::syntax::document::{Member, Node};
use crate::syntax::source::Span;

/// The span that removes `members[i]` with its separator, leaving the neighbours' layout as it
/// was: from its key to the next key, or for the last member from the end of the previous value
/// to its own end; the whole inside of the braces for a lone member.
#[must_use]
pub fn removal_span(object: &Node, members: &[Member], i: usize) -> Span {
    let member = &members[i];
    match (i.checked_sub(1).map(|p| &members[p]), members.get(i + 1)) {
        (_, Some(next)) => Span::new(member.key_span.start, next.key_span.start),
        (Some(prev), None) => Span::new(prev.value.span.end, member.value.span.end),
        (None, None) => Span::new(object.span.start + 1, object.span.end - 1),
    }
}
