//! What an HTML page is made of, as far as the rules need: its scripts (inline code, or a
//! `src`), its style sheets, its `data-bind` attributes, each with where it is in the page, and
//! what it says of its fields to the installer (labels, placeholders).
//! Read with html5gum, a tokenizer that follows the WHATWG specification (a `<script>` inside a
//! comment or a `<textarea>` is text, `</script>` inside a script's string ends it, as in a
//! browser), keeping the byte range of every tag and attribute.

use html5gum::{DefaultEmitter, StartTag, Token, Tokenizer};

use super::written_credentials::is_written_credential;
use crate::model::looks_like_a_data_bind_name;
use crate::span::Span;
use crate::suppression::{self, Suppression};

/// An attribute's value as the browser reads it (entities decoded), and where its text is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AttributeValue {
    pub value: String,
    /// The value as written, quotes excluded.
    pub span: Span,
}

/// One `<script>` element.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PageScript {
    /// The start tag.
    pub tag: Span,
    /// `src`, for a script loaded from a file or a URL.
    pub src: Option<AttributeValue>,
    /// The code between the tags, when the browser runs it as JavaScript: no `src`, and a
    /// `type` that is JavaScript (or none).
    pub code: Option<Span>,
    /// `type="module"`: its top-level names are the module's own, not the page's globals.
    pub module: bool,
}

/// The parts of a page the rules read.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct HtmlPage {
    /// Every `<script>`, in the order the browser runs them.
    pub scripts: Vec<PageScript>,
    /// The `href` of every `<link rel="stylesheet">`.
    pub stylesheets: Vec<AttributeValue>,
    /// Every `data-bind` attribute.
    pub data_binds: Vec<AttributeValue>,
    /// The `id` of each element with a `data-bind`, with its value: how scripts find the field
    /// the platform fills.
    pub bound_ids: Vec<(String, String)>,
    /// Attribute values written as credentials (`<input value="ghp_…">`), the values of
    /// password fields and `data-bind` values that are not names, which outputs mask.
    pub credentials: Vec<Span>,
    /// What the page tells the installer of each field with an `id`, in the page's order.
    pub field_texts: Vec<FieldText>,
    /// Its suppression comments (`<!-- iparams-lint-ignore-next-line RULE -->`).
    pub suppressions: Vec<Suppression>,
}

/// Where a field's text is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FieldTextKind {
    /// A `<label>` for it (`for="id"`, or around it), or its `label` attribute (the vendor's
    /// components: `<fw-input label="API key">`).
    Label,
    /// Its `placeholder`.
    Placeholder,
}

/// A text the page shows for one of its fields.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FieldText {
    /// The field's `id`.
    pub id: String,
    pub kind: FieldTextKind,
    pub text: String,
}

/// A `<label>` being read: the field it names with `for`, the one it holds, and its text.
#[derive(Default)]
struct OpenLabel {
    target: Option<String>,
    text: String,
}

/// Script types a browser runs as JavaScript, or that pages compile in the browser (Babel).
fn runs_as_javascript(script_type: Option<&str>) -> bool {
    let Some(script_type) = script_type.map(str::trim) else {
        return true;
    };
    script_type.is_empty()
        || ["javascript", "ecmascript", "module", "babel", "jsx"]
            .iter()
            .any(|known| script_type.to_ascii_lowercase().contains(known))
}

/// Where the value of the attribute written at `written` (name, `=`, value) is.
fn value_span(text: &str, written: Span) -> Span {
    let attribute = &text[written.start..written.end.min(text.len())];
    let Some(equals) = attribute.find('=') else {
        return Span::at(written.end);
    };
    let after = &attribute[equals + 1..];
    let skipped = after.len() - after.trim_start().len();
    let start = written.start + equals + 1 + skipped;
    let rest = &text[start..];
    match rest.chars().next() {
        Some(quote @ ('"' | '\'')) => {
            let length = rest[1..].find(quote).unwrap_or(rest.len() - 1);
            Span::new(start + 1, start + 1 + length)
        }
        _ => {
            let length = rest
                .find(|c: char| c.is_ascii_whitespace() || c == '>')
                .unwrap_or(rest.len());
            Span::new(start, start + length)
        }
    }
}

/// The suppression written in the HTML comment at `written` (`<!--` to `-->`, or less where the
/// page ends first).
fn html_suppression(text: &str, written: Span) -> Option<Suppression> {
    let comment = text.get(written.start..written.end)?;
    let opened = comment.strip_prefix("<!--")?;
    let content = opened.strip_suffix("-->").unwrap_or(opened);
    suppression::read(content, written.start + 4, written)
}

impl HtmlPage {
    /// What the page loads from a file or a URL, in the page's order: each script's `src`
    /// (`"script"`) and each style sheet's `href` (`"style sheet"`).
    pub fn loaded(&self) -> Vec<(&'static str, &AttributeValue)> {
        let scripts = self
            .scripts
            .iter()
            .filter_map(|script| script.src.as_ref().map(|src| ("script", src)));
        let sheets = self.stylesheets.iter().map(|href| ("style sheet", href));
        let mut loaded: Vec<_> = scripts.chain(sheets).collect();
        loaded.sort_by_key(|(_, reference)| reference.span.start);
        loaded
    }

    /// The page `text`.
    pub fn read(text: &str) -> Self {
        let mut page = HtmlPage::default();
        let mut emitter = DefaultEmitter::<usize>::new_with_span();
        // The states a tag's name implies (script data after `<script>`, RCDATA after
        // `<textarea>`), which a tree builder would choose: what a tokenizer alone needs.
        emitter.naively_switch_states(true);
        // A script being read: its start tag, `src`, whether it runs, where its code starts.
        let mut open: Option<(PageScript, bool)> = None;
        // Labels do not nest: a `<label>` inside another is not one (the HTML standard).
        let mut label: Option<OpenLabel> = None;
        for Ok(token) in Tokenizer::new_with_emitter(text, emitter) {
            match token {
                Token::StartTag(tag) => {
                    if let Some(opened) = page.start_tag(text, &tag) {
                        open = Some(opened);
                    }
                    label = page.in_label(label, &tag);
                }
                Token::EndTag(tag) if tag.name.as_slice() == b"script" => {
                    if let Some((script, runs)) = open.take() {
                        page.close(script, runs, tag.span.start);
                    }
                }
                Token::EndTag(tag) if tag.name.as_slice() == b"label" => {
                    page.close_label(label.take());
                }
                Token::String(written) if open.is_none() => {
                    if let Some(label) = &mut label {
                        label
                            .text
                            .push_str(&String::from_utf8_lossy(&written.value));
                    }
                }
                Token::Comment(comment) => {
                    page.suppressions.extend(html_suppression(
                        text,
                        Span::new(comment.span.start, comment.span.end),
                    ));
                }
                _ => {}
            }
        }
        // A script left open runs to the end of the page, as in a browser.
        if let Some((script, runs)) = open {
            page.close(script, runs, text.len());
        }
        page
    }

    /// Takes in what the start tag `tag` holds; a `<script>` whose code follows is returned,
    /// with whether it runs, to be closed by its end tag.
    fn start_tag(&mut self, text: &str, tag: &StartTag<usize>) -> Option<(PageScript, bool)> {
        let attribute = |name: &str| {
            tag.attributes
                .get(name.as_bytes())
                .map(|value| AttributeValue {
                    value: String::from_utf8_lossy(&value.value).into_owned(),
                    span: value_span(text, Span::new(value.span.start, value.span.end)),
                })
        };
        let type_attribute = attribute("type");
        // A password field's value is a secret written in the page, whatever it looks like.
        let password = tag.name.as_slice() == b"input"
            && type_attribute
                .as_ref()
                .is_some_and(|t| t.value.eq_ignore_ascii_case("password"));
        for (name, value) in &tag.attributes {
            let written = String::from_utf8_lossy(&value.value);
            if is_written_credential(&written)
                || (password && name.as_slice() == b"value" && !written.is_empty())
            {
                let written = Span::new(value.span.start, value.span.end);
                self.credentials.push(value_span(text, written));
            }
        }
        if let Some(bind) = attribute("data-bind") {
            // Not a name: perhaps a token pasted there, as in iparams.json.
            if !looks_like_a_data_bind_name(&bind.value) {
                self.credentials.push(bind.span);
            }
            if let Some(id) = attribute("id") {
                self.bound_ids.push((id.value, bind.value.clone()));
            }
            self.data_binds.push(bind);
        }
        match tag.name.as_slice() {
            b"script" => {
                let src = attribute("src");
                let script_type = type_attribute.as_ref().map(|t| t.value.trim());
                let runs = src.is_none() && runs_as_javascript(script_type);
                let script = PageScript {
                    tag: Span::new(tag.span.start, tag.span.end),
                    src,
                    code: None,
                    module: script_type.is_some_and(|t| t.eq_ignore_ascii_case("module")),
                };
                if !tag.self_closing {
                    return Some((script, runs));
                }
                self.scripts.push(script);
            }
            b"link" => {
                let stylesheet = attribute("rel").is_some_and(|rel| {
                    rel.value
                        .split_ascii_whitespace()
                        .any(|word| word.eq_ignore_ascii_case("stylesheet"))
                });
                if let (true, Some(href)) = (stylesheet, attribute("href")) {
                    self.stylesheets.push(href);
                }
            }
            _ => {}
        }
        None
    }

    /// The label being read once the start tag `tag` is read: a `<label>` opens one, the first
    /// field with an `id` inside a label without `for` is the one it names; the field's own
    /// `label` and `placeholder` attributes are its texts.
    fn in_label(&mut self, label: Option<OpenLabel>, tag: &StartTag<usize>) -> Option<OpenLabel> {
        let attribute = |name: &str| {
            tag.attributes
                .get(name.as_bytes())
                .map(|value| String::from_utf8_lossy(&value.value).into_owned())
        };
        if tag.name.as_slice() == b"label" {
            return Some(label.unwrap_or(OpenLabel {
                target: attribute("for"),
                text: String::new(),
            }));
        }
        let Some(id) = attribute("id") else {
            return label;
        };
        for (kind, name) in [
            (FieldTextKind::Label, "label"),
            (FieldTextKind::Placeholder, "placeholder"),
        ] {
            if let Some(text) = attribute(name) {
                self.field_texts.push(FieldText {
                    id: id.clone(),
                    kind,
                    text,
                });
            }
        }
        label.map(|mut label| {
            label.target.get_or_insert(id);
            label
        })
    }

    fn close_label(&mut self, label: Option<OpenLabel>) {
        let Some(OpenLabel {
            target: Some(id),
            text,
        }) = label
        else {
            return;
        };
        let text = text.split_whitespace().collect::<Vec<_>>().join(" ");
        if !text.is_empty() {
            self.field_texts.push(FieldText {
                id,
                kind: FieldTextKind::Label,
                text,
            });
        }
    }

    fn close(&mut self, mut script: PageScript, runs: bool, end: usize) {
        if runs {
            script.code = Some(Span::new(script.tag.end, end.max(script.tag.end)));
        }
        self.scripts.push(script);
    }

    /// The code of its inline scripts, in order.
    pub fn inline_code(&self) -> impl Iterator<Item = Span> + '_ {
        self.scripts.iter().filter_map(|script| script.code)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(text: &str, span: Span) -> &str {
        &text[span.start..span.end]
    }

    #[test]
    fn suppression_comments_are_read_with_their_names() {
        let text = concat!(
            "<!-- a note -->\n",
            "<!-- iparams-lint-ignore-next-line remote-page-resource, missing-page-asset -->\n",
            "<script src=\"https://code.jquery.com/jquery.js\"></script>\n",
            "<!--iparams-lint-ignore-next-line remote-page-resource",
        );
        let page = HtmlPage::read(text);
        let names: Vec<Vec<&str>> = page
            .suppressions
            .iter()
            .map(|s| s.names.iter().map(|name| at(text, name.span)).collect())
            .collect();
        assert_eq!(
            names,
            [
                vec!["remote-page-resource", "missing-page-asset"],
                vec!["remote-page-resource"]
            ]
        );
        assert_eq!(
            at(text, page.suppressions[0].comment),
            "<!-- iparams-lint-ignore-next-line remote-page-resource, missing-page-asset -->"
        );
    }

    #[test]
    fn scripts_as_a_browser_reads_them() {
        let text = concat!(
            "<!-- <script>commented()</script> -->\n",
            "<script src=\"{{{appclient}}}\"></script>\n",
            "<SCRIPT type=module>if (a < b && '</div>') go()</SCRIPT>\n",
            "<script type=\"text/template\"><b>not code</b></script>\n",
            "<textarea><script>text()</script></textarea>\n",
            "<script>last()",
        );
        let page = HtmlPage::read(text);
        let srcs: Vec<_> = page
            .scripts
            .iter()
            .map(|s| s.src.as_ref().map(|src| at(text, src.span)))
            .collect();
        assert_eq!(srcs, [Some("{{{appclient}}}"), None, None, None]);
        let code: Vec<_> = page.inline_code().map(|span| at(text, span)).collect();
        assert_eq!(code, ["if (a < b && '</div>') go()", "last()"]);
    }

    #[test]
    fn attribute_values_point_at_their_text() {
        let text = "<input data-bind='product.api_key' id=a>\n<link href=x.css rel=\"preload stylesheet\"><link rel=icon href=i.png>\n<fw-input data-bind = product.domain>";
        let page = HtmlPage::read(text);
        let binds: Vec<_> = page
            .data_binds
            .iter()
            .map(|bind| (bind.value.as_str(), at(text, bind.span)))
            .collect();
        assert_eq!(
            binds,
            [
                ("product.api_key", "product.api_key"),
                ("product.domain", "product.domain")
            ]
        );
        let sheets: Vec<_> = page.stylesheets.iter().map(|s| at(text, s.span)).collect();
        assert_eq!(sheets, ["x.css"]);
    }

    #[test]
    fn secrets_written_in_attributes_are_found() {
        let text = "<input type=PASSWORD value='hunter2'><input value=\"ghp_0123456789abcdefghijABCDEFGHIJ012345\"><input value=plain>";
        let page = HtmlPage::read(text);
        let found: Vec<_> = page.credentials.iter().map(|s| at(text, *s)).collect();
        assert_eq!(
            found,
            ["hunter2", "ghp_0123456789abcdefghijABCDEFGHIJ012345"]
        );
    }

    #[test]
    fn what_the_page_says_of_its_fields() {
        let text = concat!(
            "<label for=\"key\">API\n  key</label><input id=\"key\" placeholder=\"Paste it\">\n",
            "<label>Region <b>code</b> <input id=region></label>\n",
            "<fw-input id=\"token\" label=\"Bot token\"></fw-input>\n",
            "<label>Nothing named</label><label for=\"empty\"> </label>",
        );
        let page = HtmlPage::read(text);
        let texts: Vec<_> = page
            .field_texts
            .iter()
            .map(|t| (t.id.as_str(), t.kind, t.text.as_str()))
            .collect();
        assert_eq!(
            texts,
            [
                ("key", FieldTextKind::Label, "API key"),
                ("key", FieldTextKind::Placeholder, "Paste it"),
                ("region", FieldTextKind::Label, "Region code"),
                ("token", FieldTextKind::Label, "Bot token"),
            ]
        );
    }

    #[test]
    fn entities_are_decoded_in_values_and_kept_in_spans() {
        let text = "<script src=\"a.js?x=1&amp;y=2\"></script>";
        let page = HtmlPage::read(text);
        let src = page.scripts[0]
            .src
            .as_ref()
            .map(|src| (src.value.as_str(), at(text, src.span)));
        assert_eq!(src, Some(("a.js?x=1&y=2", "a.js?x=1&amp;y=2")));
    }
}
