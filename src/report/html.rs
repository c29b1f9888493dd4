//! `index.html`: the report's Markdown rendered by pulldown-cmark (tables,
//! strikethrough), with GitHub-style heading anchors so that the table of
//! contents and the scorecard's section links work in the browser too.

use crate::results::scorecard::anchor;
use pulldown_cmark::{html, CowStr, Event, Options, Parser, Tag, TagEnd};

const HEAD: &str = "<!doctype html><html><head><meta charset=\"utf-8\"><title>cvbench report</title><style>body{font-family:sans-serif;max-width:1300px;margin:2em auto;padding:0 1em}table{border-collapse:collapse;margin:1em 0}td,th{border:1px solid #bbb;padding:3px 8px;font-size:90%;vertical-align:top}th{background:#eee}img{max-width:100%;border:1px solid #ddd}blockquote{border-left:4px solid #ccc;margin:0;padding-left:1em;color:#444}code{background:#f4f4f4}ul{margin:0.3em 0}</style></head><body>\n";

/// The report page: `md` as HTML in a self-contained page. Every heading
/// gets the id [`anchor`] gives its text, as on GitHub.
pub fn markdown_to_html(md: &str) -> String {
    let mut opts = Options::empty();
    opts.insert(Options::ENABLE_TABLES);
    opts.insert(Options::ENABLE_STRIKETHROUGH);
    let mut events: Vec<Event<'_>> = Parser::new_ext(md, opts).collect();
    // Give each heading the anchor of its plain text (code spans included).
    let mut open: Option<usize> = None;
    let mut text = String::new();
    for i in 0..events.len() {
        match &events[i] {
            Event::Start(Tag::Heading { .. }) => {
                open = Some(i);
                text.clear();
            }
            Event::Text(t) | Event::Code(t) if open.is_some() => text.push_str(t),
            Event::End(TagEnd::Heading(_)) => {
                if let Some(j) = open.take() {
                    if let Event::Start(Tag::Heading { id, .. }) = &mut events[j] {
                        *id = Some(CowStr::from(anchor(&text)));
                    }
                }
            }
            _ => {}
        }
    }
    let mut out = String::from(HEAD);
    html::push_html(&mut out, events.into_iter());
    out.push_str("</body></html>\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn html_has_tables_images_and_escapes() {
        let h =
            markdown_to_html("# T\n\n| a | b |\n|---|---|\n| 1 < 2 | `x` |\n\n![f](run/f.svg)\n");
        assert!(h.contains("<h1 id=\"t\">T</h1>"), "{h}");
        assert!(
            h.contains("<th>a</th>") && h.contains("<td>1 &lt; 2</td>"),
            "{h}"
        );
        assert!(h.contains("<code>x</code>"));
        assert!(h.contains("<img src=\"run/f.svg\""));
    }

    #[test]
    fn html_has_anchors_links_lists_and_escaped_bars() {
        let h = markdown_to_html(
            "## Run `x`\n\n- [Run x](#run-x)\n  - sub\n\n| a | b |\n|---|---|\n| 1 \\| 2 | [s](#run-x) |\n\n<sub>small</sub>\n",
        );
        assert!(
            h.contains("<h2 id=\"run-x\">Run <code>x</code></h2>"),
            "{h}"
        );
        assert!(h.contains("<a href=\"#run-x\">Run x</a>"), "{h}");
        assert!(h.contains("<li>sub</li>"), "{h}");
        assert!(h.contains("<td>1 | 2</td>"), "{h}");
        assert!(h.contains("<sub>small</sub>"), "{h}");
        assert_eq!(h.matches("<table>").count(), 1);
    }
}
