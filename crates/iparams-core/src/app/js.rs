//! What an app's JavaScript does with iparams, read with oxc's parser: which callbacks
//! config/assets/iparams.js declares, which `utils.get`/`utils.set` calls it makes, and which
//! iparams front-end and serverless code reads.

use oxc_allocator::Allocator;
use oxc_ast::ast::{
    Argument, ArrowFunctionExpression, AssignmentExpression, AssignmentTarget, BindingPattern,
    CallExpression, Comment, ComputedMemberExpression, Expression, Function, ObjectPattern,
    ObjectProperty, ObjectPropertyKind, Statement, StaticMemberExpression, StringLiteral,
    TemplateElement, VariableDeclarator,
};
use oxc_ast_visit::{Visit, walk};
use oxc_parser::Parser;
use oxc_semantic::SemanticBuilder;
use oxc_span::{GetSpan, SourceType};
use oxc_syntax::scope::ScopeFlags;

use super::code_secrets::{self, CodeSecret, CodeSecretKind, InString};
use super::html::HtmlPage;
use super::input::is_page;
use super::invocations::{Invocation, LegacyRequest, RequestCall, request_call};
use super::iparam_read::Read;
use super::literals::{Literal, literal_kind, literal_string};
use super::logged_iparams::{LoggedIparam, logged_iparams};
pub use super::page_functions::FunctionValue;
use super::page_functions::{PageFunction, page_functions};
use super::requests::placeholder_iparams;
use super::script_depth::{self, IN_PLACE_DEPTH, MAX_DEPTH};
use super::typescript_nest::too_nested;
use super::whole_iparams::{WholeIparams, is_whole_get, then_callback};
use super::written_credentials::names_a_secret;
use crate::span::Span;
use crate::suppression::{self, Suppression};

/// Where a script runs, which decides what it can read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Script {
    /// config/assets/iparams.js, on the installation page.
    Callbacks,
    /// The app's pages, in the browser: `client.iparams.get()`.
    Frontend,
    /// server/: `args.iparams.key`.
    Serverless,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UtilsMethod {
    Get,
    Set,
}

/// One `attribute: value` of a `utils.set(key, {...})` call.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SetAttribute {
    pub name: String,
    pub name_span: Span,
    pub value: Literal,
    pub value_span: Span,
}

/// One `utils.get(key)` or `utils.set(key, {...})`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UtilsCall {
    pub method: UtilsMethod,
    /// The key when it is a string literal.
    pub key: Option<(String, Span)>,
    pub span: Span,
    pub attributes: Vec<SetAttribute>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SyntaxProblem {
    pub message: String,
    pub span: Span,
    /// Why nothing in the file was read, when nothing was.
    pub unread: Option<Unread>,
}

/// Why a script was not read at all.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unread {
    /// TypeScript nested so that the parser would take exponential time (see [`too_nested`]).
    TooNested,
    /// Nested so deep that reading it would overflow the stack (see [`script_depth`]).
    TooDeep,
    /// The parser panicked on it (oxc 0.146 does on `export { "\\u" }`: it takes four bytes
    /// after a `\u` in a string's value, whatever follows).
    ParserFailed,
}

thread_local! {
    static PARSING: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Whether this thread is inside oxc's parser, whose panics are caught and reported as a
/// finding: a front-end's panic hook need not print them.
pub fn parsing() -> bool {
    PARSING.with(std::cell::Cell::get)
}

/// What one script shows.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct JsFacts {
    pub syntax_errors: Vec<SyntaxProblem>,
    /// Top-level `function name() {}` declarations.
    pub functions: Vec<(String, Span)>,
    /// Other top-level names that hold a function.
    pub function_values: Vec<(String, Span, FunctionValue)>,
    pub utils_calls: Vec<UtilsCall>,
    pub reads: Vec<Read>,
    /// The script reads iparams without naming which: `client.iparams.get()`, `args.iparams[name]`.
    pub reads_all: bool,
    /// Request templates it invokes.
    pub invocations: Vec<Invocation>,
    /// Calls of the request API before templates.
    pub legacy_requests: Vec<LegacyRequest>,
    /// Credentials written in its strings, which outputs mask.
    pub secrets: Vec<Span>,
    /// What the rules about code report of those, and the comments that hold a credential.
    pub code_secrets: Vec<CodeSecret>,
    /// The iparams serverless code writes to its logs (`console.log(args.iparams)`).
    pub logged_iparams: Vec<LoggedIparam>,
    /// The `<%= iparam.x %>` placeholders written in the strings passed to the request API
    /// before templates (its URL and options), which the platform substitutes: reads, but
    /// not through `client.iparams.get`.
    pub request_reads: Vec<Read>,
    /// The functions of a custom installation page it defines (`postConfigs`, `getConfigs`,
    /// `validate`): read in the installation page's scripts only.
    pub page_functions: Vec<PageFunction>,
    /// The `client.iparams.get(…)` calls of a script of the installation page, where the
    /// client has no `iparams` (by the span of `iparams`).
    pub iparams_api_calls: Vec<Span>,
    /// Its suppression comments (and, for a page, those of its HTML).
    pub suppressions: Vec<Suppression>,
}

impl JsFacts {
    /// A script of which nothing was read, for `why`.
    fn unread(why: SyntaxProblem) -> Self {
        JsFacts {
            syntax_errors: vec![why],
            ..JsFacts::default()
        }
    }

    pub fn merge(&mut self, other: JsFacts) {
        self.syntax_errors.extend(other.syntax_errors);
        self.functions.extend(other.functions);
        self.function_values.extend(other.function_values);
        self.utils_calls.extend(other.utils_calls);
        self.reads.extend(other.reads);
        self.reads_all |= other.reads_all;
        self.invocations.extend(other.invocations);
        self.legacy_requests.extend(other.legacy_requests);
        self.secrets.extend(other.secrets);
        self.code_secrets.extend(other.code_secrets);
        self.logged_iparams.extend(other.logged_iparams);
        self.request_reads.extend(other.request_reads);
        self.page_functions.extend(other.page_functions);
        self.iparams_api_calls.extend(other.iparams_api_calls);
        self.suppressions.extend(other.suppressions);
    }
}

/// The parser's reading of a file by its name: TypeScript, JSX, or JavaScript (with JSX
/// allowed, since React apps put it in `.js` files), module or script by its content.
fn source_type(path: &str) -> SourceType {
    let lower = path.to_ascii_lowercase();
    let base = if lower.ends_with(".tsx") {
        SourceType::tsx()
    } else if lower.ends_with(".ts") || lower.ends_with(".mts") || lower.ends_with(".cts") {
        SourceType::ts()
    } else {
        SourceType::jsx()
    };
    base.with_unambiguous(true)
}

/// Analyses `text`, the JavaScript of a file called `path`; spans are shifted by `offset`
/// (where an inline `<script>` starts in its HTML file).
pub fn analyze(text: &str, path: &str, offset: usize, script: Script) -> JsFacts {
    // A text shorter than that has fewer tokens, so it cannot nest deeper.
    if text.len() > IN_PLACE_DEPTH as usize {
        let deep = script_depth::depth(text);
        if deep.depth > IN_PLACE_DEPTH {
            return on_a_stack_for(deep, offset, || {
                analyze_in(&Allocator::default(), text, path, offset, script)
            });
        }
    }
    thread_local! {
        // One arena per thread, emptied after each script and kept (with its largest chunk):
        // a new one for each script is allocated and grown again every time.
        static ARENA: std::cell::RefCell<Allocator> = std::cell::RefCell::new(Allocator::default());
    }
    ARENA.with(|arena| match arena.try_borrow_mut() {
        Ok(mut arena) => {
            let facts = analyze_in(&arena, text, path, offset, script);
            arena.reset();
            facts
        }
        Err(_) => analyze_in(&Allocator::default(), text, path, offset, script),
    })
}

/// What `analyze` gives, run on a thread whose stack holds a script `deep`; a script past
/// [`MAX_DEPTH`], or one no such thread could be started for, is not read (an error finding).
fn on_a_stack_for(
    deep: script_depth::Depth,
    offset: usize,
    analyze: impl FnOnce() -> JsFacts + Send,
) -> JsFacts {
    let unread = |message: String| {
        JsFacts::unread(SyntaxProblem {
            message,
            span: Span::new(deep.span.start + offset, deep.span.end + offset),
            unread: Some(Unread::TooDeep),
        })
    };
    if deep.depth > MAX_DEPTH {
        return unread(format!(
            "the code nests over {MAX_DEPTH} levels deep here, deeper than the parser is given"
        ));
    }
    std::thread::scope(|scope| {
        let spawned = std::thread::Builder::new()
            .name("deep-script".into())
            .stack_size(deep.stack())
            .spawn_scoped(scope, analyze);
        match spawned.map(std::thread::ScopedJoinHandle::join) {
            Ok(Ok(facts)) => facts,
            Ok(Err(panic)) => std::panic::resume_unwind(panic),
            Err(error) => unread(format!(
                "the code nests {} levels deep here, and no thread with a stack for that could \
                 be started ({error})",
                deep.depth
            )),
        }
    })
}

fn analyze_in(
    allocator: &Allocator,
    text: &str,
    path: &str,
    offset: usize,
    script: Script,
) -> JsFacts {
    let source_type = source_type(path);
    if source_type.is_typescript()
        && let Some(nest) = too_nested(text)
    {
        return JsFacts::unread(SyntaxProblem {
            message: format!(
                "`<` and `(` nest {} deep here, too deep for TypeScript's parser",
                nest.depth
            ),
            span: Span::new(nest.span.start + offset, nest.span.end + offset),
            unread: Some(Unread::TooNested),
        });
    }
    PARSING.with(|parsing| parsing.set(true));
    let parsed = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        Parser::new(allocator, text, source_type).parse()
    }));
    PARSING.with(|parsing| parsing.set(false));
    let Ok(parsed) = parsed else {
        return JsFacts::unread(SyntaxProblem {
            message: "the JavaScript parser (oxc) failed on this file".to_owned(),
            span: Span::at(offset),
            unread: Some(Unread::ParserFailed),
        });
    };
    let shift =
        |span: oxc_span::Span| Span::new(span.start as usize + offset, span.end as usize + offset);
    let mut facts = JsFacts {
        syntax_errors: parsed
            .diagnostics
            .iter()
            .map(|error| SyntaxProblem {
                message: error.message.to_string(),
                span: error.labels.first().map_or(Span::at(offset), |label| {
                    // oxc may point inside a character (the last byte of the text, for an
                    // unterminated template): widen to whole characters, within the text.
                    let start = text.floor_char_boundary(label.offset() as usize);
                    let end =
                        text.ceil_char_boundary(label.offset() as usize + label.len() as usize);
                    Span::new(start + offset, end.max(start) + offset)
                }),
                unread: None,
            })
            .collect(),
        ..JsFacts::default()
    };
    for statement in &parsed.program.body {
        top_level(statement, &mut facts, &shift);
    }
    let mut collector = Collector {
        facts: &mut facts,
        script,
        text,
        shift: &shift,
        held: Vec::new(),
        passed: Vec::new(),
        whole: WholeIparams::default(),
    };
    collector.whole.enter(parsed.program.span);
    collector.visit_program(&parsed.program);
    collector.held_strings_passed();
    let comments = code_secrets::in_comments(&parsed.program.comments, text, &shift);
    facts
        .secrets
        .extend(comments.iter().map(|secret| secret.span));
    facts.code_secrets.extend(comments);
    facts.suppressions = suppressions(&parsed.program.comments, text, offset);
    if script == Script::Callbacks {
        // The semantic analysis costs a pass of its own: only for a script that may define
        // `postConfigs`, whose reads it checks.
        let semantic = text
            .contains("postConfigs")
            .then(|| SemanticBuilder::new().build(&parsed.program).semantic);
        facts.page_functions = page_functions(&parsed.program, semantic.as_ref(), &shift);
    }
    facts
}

/// The suppression comments among `comments` of `text`, which starts at `offset` in its file.
fn suppressions(comments: &[Comment], text: &str, offset: usize) -> Vec<Suppression> {
    comments
        .iter()
        .filter_map(|comment| {
            let content = comment.content_span();
            let (start, end) = (content.start as usize, content.end as usize);
            let whole = Span::new(
                comment.span.start as usize + offset,
                comment.span.end as usize + offset,
            );
            suppression::read(text.get(start..end)?, start + offset, whole)
        })
        .collect()
}

fn top_level(
    statement: &Statement<'_>,
    facts: &mut JsFacts,
    shift: &dyn Fn(oxc_span::Span) -> Span,
) {
    match statement {
        Statement::FunctionDeclaration(function) => {
            if let Some(id) = &function.id {
                facts.functions.push((id.name.to_string(), shift(id.span)));
            }
        }
        Statement::VariableDeclaration(declaration) => {
            for declarator in &declaration.declarations {
                let (BindingPattern::BindingIdentifier(id), Some(init)) =
                    (&declarator.id, &declarator.init)
                else {
                    continue;
                };
                let how = match init.get_inner_expression() {
                    Expression::ArrowFunctionExpression(_) => FunctionValue::Arrow,
                    Expression::FunctionExpression(_) => FunctionValue::Expression,
                    _ => continue,
                };
                facts
                    .function_values
                    .push((id.name.to_string(), shift(id.span), how));
            }
        }
        Statement::ExpressionStatement(statement) => {
            let Expression::AssignmentExpression(assignment) = &statement.expression else {
                return;
            };
            let Some(member) = assignment.left.as_member_expression() else {
                return;
            };
            let global = matches!(member.object(), Expression::Identifier(id) if matches!(id.name.as_str(), "window" | "self" | "globalThis"));
            let is_function = matches!(
                assignment.right.get_inner_expression(),
                Expression::ArrowFunctionExpression(_) | Expression::FunctionExpression(_)
            );
            if let (true, true, Some(name)) = (global, is_function, member.static_property_name()) {
                facts.function_values.push((
                    name.to_string(),
                    shift(member.span()),
                    FunctionValue::WindowProperty,
                ));
            }
        }
        _ => {}
    }
}

struct Collector<'f, 's> {
    facts: &'f mut JsFacts,
    script: Script,
    /// The script's text, which spans index before they are shifted.
    text: &'s str,
    shift: &'s dyn Fn(oxc_span::Span) -> Span,
    /// The `<%= iparam.x %>` placeholders of the strings given to each variable.
    held: Vec<(String, Vec<Read>)>,
    /// The names the legacy request calls' arguments use.
    passed: Vec<String>,
    /// The names that hold every iparam (`const ip = await client.iparams.get()`).
    whole: WholeIparams,
}

/// The names of variables an expression uses.
#[derive(Default)]
struct Names(Vec<String>);

impl<'a> Visit<'a> for Names {
    fn visit_identifier_reference(&mut self, id: &oxc_ast::ast::IdentifierReference<'a>) {
        self.0.push(id.name.to_string());
    }
}

/// The spans of the string literals and of the literal parts of template literals in what it
/// visits, as written (quotes and escapes included).
#[derive(Default)]
struct StringParts(Vec<oxc_span::Span>);

impl<'a> Visit<'a> for StringParts {
    fn visit_string_literal(&mut self, literal: &StringLiteral<'a>) {
        self.0.push(literal.span);
    }

    fn visit_template_element(&mut self, element: &TemplateElement<'a>) {
        self.0.push(element.span);
    }
}

/// `<anything>.iparams`, or a variable named `iparams`.
fn is_iparams_object(expression: &Expression<'_>) -> bool {
    match expression.get_inner_expression() {
        Expression::StaticMemberExpression(member) => member.property.name == "iparams",
        Expression::Identifier(id) => id.name == "iparams",
        _ => false,
    }
}

impl Collector<'_, '_> {
    fn read(&mut self, key: &str, span: oxc_span::Span) {
        let span = (self.shift)(span);
        self.facts.reads.push(Read {
            key: key.to_owned(),
            span,
        });
    }

    /// The `<%= iparam.x %>` placeholders in the strings of a legacy request call's arguments,
    /// whole strings or literal parts of template literals and concatenations alike: the
    /// platform substitutes them in the URL and options. The variables the arguments use are
    /// kept, for the strings given to them (`const url = "…<%= iparam.x %>…"`).
    fn request_reads(&mut self, call: &CallExpression<'_>) {
        let mut strings = StringParts::default();
        let mut names = Names::default();
        for argument in &call.arguments {
            strings.visit_argument(argument);
            names.visit_argument(argument);
        }
        let reads = self.placeholders(strings);
        self.facts.request_reads.extend(reads);
        self.passed.extend(names.0);
    }

    /// The `<%= iparam.x %>` placeholders written in `strings`.
    fn placeholders(&self, strings: StringParts) -> Vec<Read> {
        let mut reads = Vec::new();
        for part in strings.0 {
            let written = &self.text[part.start as usize..part.end as usize];
            for (key, at) in placeholder_iparams(written) {
                let span = (self.shift)(oxc_span::Span::new(
                    part.start + at.start as u32,
                    part.start + at.end as u32,
                ));
                reads.push(Read {
                    key: key.to_owned(),
                    span,
                });
            }
        }
        reads
    }

    /// Keeps the placeholders of the strings given to the variable `name`.
    fn hold(&mut self, name: &str, value: &Expression<'_>) {
        let mut strings = StringParts::default();
        strings.visit_expression(value);
        let reads = self.placeholders(strings);
        if !reads.is_empty() {
            self.held.push((name.to_owned(), reads));
        }
    }

    /// The placeholders of the strings given to a variable that a legacy request call uses
    /// are reads, as if written in the call.
    fn held_strings_passed(&mut self) {
        for (name, reads) in std::mem::take(&mut self.held) {
            if self.passed.contains(&name) {
                self.facts.request_reads.extend(reads);
            }
        }
    }

    /// `{ region, api_key }` given the iparams object: a read of each key.
    fn destructured(&mut self, pattern: &ObjectPattern<'_>) {
        for property in &pattern.properties {
            match property.key.static_name() {
                Some(key) => self.read(&key, property.key.span()),
                None => self.facts.reads_all = true,
            }
        }
        if pattern.rest.is_some() {
            self.facts.reads_all = true;
        }
    }

    /// The parameter of `client.iparams.get().then(callback)`, which is given every iparam.
    fn whole_callback(&mut self, callback: &Argument<'_>) {
        let (params, span) = match callback {
            Argument::ArrowFunctionExpression(arrow) => (&arrow.params, arrow.span),
            Argument::FunctionExpression(function) => (&function.params, function.span),
            _ => return,
        };
        match params.items.first().map(|param| &param.pattern) {
            Some(BindingPattern::BindingIdentifier(id)) => self.whole.bind_in(&id.name, span),
            Some(BindingPattern::ObjectPattern(pattern)) => self.destructured(pattern),
            _ => {}
        }
    }

    fn utils_call(&mut self, method: UtilsMethod, call: &CallExpression<'_>) {
        let first = call.arguments.first().and_then(Argument::as_expression);
        let key = first
            .and_then(literal_string)
            .map(|(key, span)| (key.to_owned(), (self.shift)(span)));
        let mut attributes = Vec::new();
        if let (UtilsMethod::Set, Some(Expression::ObjectExpression(object))) = (
            method,
            call.arguments
                .get(1)
                .and_then(Argument::as_expression)
                .map(Expression::get_inner_expression),
        ) {
            for property in &object.properties {
                let ObjectPropertyKind::ObjectProperty(property) = property else {
                    continue;
                };
                let Some(name) = property.key.static_name() else {
                    continue;
                };
                attributes.push(SetAttribute {
                    name: name.into_owned(),
                    name_span: (self.shift)(property.key.span()),
                    value: literal_kind(&property.value),
                    value_span: (self.shift)(property.value.span()),
                });
            }
        }
        self.facts.utils_calls.push(UtilsCall {
            method,
            key,
            span: (self.shift)(call.span),
            attributes,
        });
    }
}

impl Collector<'_, '_> {
    /// Keeps the span of a string literal that holds a credential, or that a name meaning a
    /// secret is given (`apiKey: "…"`, `const API_TOKEN = "…"`), so that outputs mask it.
    fn secret(&mut self, name: Option<&str>, value: &Expression<'_>) {
        if let (Some(name), Expression::StringLiteral(literal)) =
            (name, value.get_inner_expression())
            && names_a_secret(name, &literal.value)
        {
            let span = (self.shift)(literal.span);
            self.facts.secrets.push(span);
            if code_secrets::is_key_shaped(&literal.value) {
                self.facts.code_secrets.push(CodeSecret {
                    kind: CodeSecretKind::Named(name.to_owned()),
                    span,
                    in_comment: false,
                });
            }
        }
    }

    /// Keeps the span of a string that holds a credential, or a random token, so that outputs
    /// mask it; and what a credential is, for the rules about code.
    fn string(&mut self, text: &str, span: oxc_span::Span) {
        let Some(found) = code_secrets::in_string(text) else {
            return;
        };
        let span = (self.shift)(span);
        self.facts.secrets.push(span);
        if let InString::Credential(kind) = found {
            self.facts.code_secrets.push(CodeSecret {
                kind: CodeSecretKind::Credential(kind),
                span,
                in_comment: false,
            });
        }
    }
}

impl<'a> Visit<'a> for Collector<'_, '_> {
    fn visit_function(&mut self, function: &Function<'a>, flags: ScopeFlags) {
        self.whole.enter(function.span);
        walk::walk_function(self, function, flags);
        self.whole.leave();
    }

    fn visit_arrow_function_expression(&mut self, arrow: &ArrowFunctionExpression<'a>) {
        self.whole.enter(arrow.span);
        walk::walk_arrow_function_expression(self, arrow);
        self.whole.leave();
    }

    fn visit_string_literal(&mut self, literal: &StringLiteral<'a>) {
        self.string(&literal.value, literal.span);
    }

    fn visit_template_element(&mut self, element: &TemplateElement<'a>) {
        self.string(&element.value.raw, element.span);
    }

    fn visit_object_property(&mut self, property: &ObjectProperty<'a>) {
        self.secret(property.key.static_name().as_deref(), &property.value);
        walk::walk_object_property(self, property);
    }

    fn visit_assignment_expression(&mut self, assignment: &AssignmentExpression<'a>) {
        let name = match &assignment.left {
            AssignmentTarget::AssignmentTargetIdentifier(id) => {
                self.hold(&id.name, &assignment.right);
                Some(id.name.as_str())
            }
            AssignmentTarget::StaticMemberExpression(member) => Some(member.property.name.as_str()),
            _ => None,
        };
        self.secret(name, &assignment.right);
        walk::walk_assignment_expression(self, assignment);
    }

    fn visit_call_expression(&mut self, call: &CallExpression<'a>) {
        match request_call(call, self.shift) {
            Some(RequestCall::Invoke(invocation)) => self.facts.invocations.push(invocation),
            Some(RequestCall::Legacy(legacy)) => {
                self.request_reads(call);
                self.facts.legacy_requests.push(legacy);
            }
            None => {}
        }
        if self.script == Script::Frontend
            && let Some(callback) = then_callback(call)
        {
            self.whole_callback(callback);
        }
        if self.script == Script::Serverless {
            let logged = logged_iparams(call, self.shift);
            self.facts.logged_iparams.extend(logged);
        }
        if let Some(member) = call.callee.get_inner_expression().as_member_expression() {
            let method = member.static_property_name();
            let object = member.object().get_inner_expression();
            match (self.script, method) {
                (Script::Callbacks, Some(name @ ("get" | "set"))) if matches!(object, Expression::Identifier(id) if id.name == "utils") =>
                {
                    self.utils_call(
                        if name == "get" {
                            UtilsMethod::Get
                        } else {
                            UtilsMethod::Set
                        },
                        call,
                    );
                }
                // The installation page runs in the browser too, with the same client.
                (Script::Frontend | Script::Callbacks, Some("get")) if matches!(object, Expression::StaticMemberExpression(m) if m.property.name == "iparams") =>
                {
                    if self.script == Script::Callbacks
                        && let Expression::StaticMemberExpression(iparams) = object
                    {
                        let span = (self.shift)(iparams.property.span);
                        self.facts.iparams_api_calls.push(span);
                    }
                    match call.arguments.first().and_then(Argument::as_expression) {
                        None => self.facts.reads_all = true,
                        Some(argument) => match literal_string(argument) {
                            Some((key, span)) => self.read(key, span),
                            None => self.facts.reads_all = true,
                        },
                    }
                }
                _ => {}
            }
        }
        walk::walk_call_expression(self, call);
    }

    fn visit_static_member_expression(&mut self, member: &StaticMemberExpression<'a>) {
        if self.reads_iparams_of(&member.object, member.span) {
            self.read(&member.property.name, member.property.span);
        }
        walk::walk_static_member_expression(self, member);
    }

    fn visit_computed_member_expression(&mut self, member: &ComputedMemberExpression<'a>) {
        if self.reads_iparams_of(&member.object, member.span) {
            match literal_string(&member.expression) {
                Some((key, span)) => self.read(key, span),
                None => self.facts.reads_all = true,
            }
        }
        walk::walk_computed_member_expression(self, member);
    }

    fn visit_variable_declarator(&mut self, declarator: &VariableDeclarator<'a>) {
        if let (BindingPattern::BindingIdentifier(id), Some(init)) =
            (&declarator.id, &declarator.init)
        {
            self.secret(Some(&id.name), init);
            self.hold(&id.name, init);
        }
        // `const { region, api_key } = args.iparams;`, `= await client.iparams.get();`
        if let (BindingPattern::ObjectPattern(pattern), Some(init)) =
            (&declarator.id, &declarator.init)
            && self.gives_iparams(init)
        {
            self.destructured(pattern);
        }
        // `const ip = await client.iparams.get();`
        if let (BindingPattern::BindingIdentifier(id), Some(init)) =
            (&declarator.id, &declarator.init)
            && self.script == Script::Frontend
            && is_whole_get(init)
        {
            self.whole.bind(&id.name);
        }
        walk::walk_variable_declarator(self, declarator);
    }
}

impl<'a> Collector<'_, '_> {
    /// Whether `value` is the iparams object of the script: `args.iparams` in serverless code,
    /// the awaited `client.iparams.get()` in the browser.
    fn gives_iparams(&self, value: &Expression<'_>) -> bool {
        match self.script {
            Script::Serverless => is_iparams_object(value),
            Script::Frontend => is_whole_get(value),
            Script::Callbacks => false,
        }
    }

    /// Whether a member of `object`, at `at`, is an iparam: of `args.iparams` in serverless
    /// code, of a name holding every iparam in the browser.
    fn reads_iparams_of(&self, object: &Expression<'a>, at: oxc_span::Span) -> bool {
        match (self.script, object.get_inner_expression()) {
            (Script::Serverless, object) => is_iparams_object(object),
            (Script::Frontend, Expression::Identifier(id)) => self.whole.holds(&id.name, at),
            _ => false,
        }
    }
}

/// A script, or the inline scripts of a page.
pub fn analyze_file(text: &str, path: &str, script: Script) -> JsFacts {
    if is_page(&path.to_ascii_lowercase()) {
        analyze_page(&HtmlPage::read(text), text, script)
    } else {
        analyze(text, path, 0, script)
    }
}

/// The inline scripts of `page`, whose text is `text`, read as one script.
pub fn analyze_page(page: &HtmlPage, text: &str, script: Script) -> JsFacts {
    let mut facts = JsFacts {
        suppressions: page.suppressions.clone(),
        ..JsFacts::default()
    };
    for code in page.inline_code() {
        facts.merge(analyze(
            &text[code.start..code.end],
            "inline.js",
            code.start,
            script,
        ));
    }
    facts
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Found by the `js` fuzz target: oxc put an unterminated template's error on the last
    /// byte of the text, inside its last character.
    #[test]
    fn syntax_errors_cover_whole_characters() {
        let text = "`${}\u{fffd}";
        let facts = analyze(text, "server/server.ts", 0, Script::Serverless);
        assert!(!facts.syntax_errors.is_empty());
        for error in &facts.syntax_errors {
            assert!(
                text.is_char_boundary(error.span.start) && text.is_char_boundary(error.span.end)
            );
            assert!(error.span.end <= text.len());
        }
    }

    /// Found by the `js` fuzz target with oxc instrumented: oxc 0.146 panics on a string export
    /// name whose value ends in `\u`. The file is reported as not read; nothing unwinds further.
    #[test]
    fn a_panic_of_the_parser_is_a_file_not_read() {
        for path in ["app/scripts/app.js", "server/server.ts"] {
            let facts = analyze(r#"export { "\\u" };"#, path, 0, Script::Frontend);
            assert_eq!(facts.syntax_errors.len(), 1, "{path}");
            assert_eq!(facts.syntax_errors[0].unread, Some(Unread::ParserFailed));
            assert!(!parsing());
        }
        // The thread's arena is usable again.
        let facts = analyze(
            "function onLoad() {}",
            "app/scripts/app.js",
            0,
            Script::Callbacks,
        );
        assert_eq!(facts.functions.len(), 1);
    }

    #[test]
    fn callbacks_declarations_and_utils_calls() {
        let code = r#"
            function onRegion(value) { utils.set("zone", { visible: true, values: ["a", "b"], min: 1, label: name }); }
            const onArrow = (v) => utils.get('region');
            var onExpr = function () {};
            window.onWindow = function () {};
        "#;
        let facts = analyze(code, "config/assets/iparams.js", 0, Script::Callbacks);
        assert!(facts.syntax_errors.is_empty());
        assert_eq!(
            facts
                .functions
                .iter()
                .map(|(n, _)| n.as_str())
                .collect::<Vec<_>>(),
            ["onRegion"]
        );
        let values: Vec<_> = facts
            .function_values
            .iter()
            .map(|(n, _, how)| (n.as_str(), *how))
            .collect();
        assert_eq!(
            values,
            [
                ("onArrow", FunctionValue::Arrow),
                ("onExpr", FunctionValue::Expression),
                ("onWindow", FunctionValue::WindowProperty)
            ]
        );
        let set = &facts.utils_calls[0];
        assert_eq!(set.method, UtilsMethod::Set);
        assert_eq!(set.key.as_ref().map(|(k, _)| k.as_str()), Some("zone"));
        let kinds: Vec<_> = set
            .attributes
            .iter()
            .map(|a| (a.name.as_str(), a.value))
            .collect();
        assert_eq!(
            kinds,
            [
                ("visible", Literal::Boolean),
                ("values", Literal::StringArray),
                ("min", Literal::Number),
                ("label", Literal::Computed)
            ]
        );
        let get = &facts.utils_calls[1];
        assert_eq!(
            (
                get.method,
                get.key
                    .as_ref()
                    .map(|(k, s)| (k.as_str(), &code[s.start..s.end]))
            ),
            (UtilsMethod::Get, Some(("region", "'region'")))
        );
    }

    #[test]
    fn frontend_reads() {
        let code =
            "client.iparams.get('region').then(r => r.region); _client.iparams.get(`api_key`);";
        let facts = analyze(code, "app/scripts/app.js", 10, Script::Frontend);
        let reads: Vec<_> = facts
            .reads
            .iter()
            .map(|r| (r.key.as_str(), r.span.start))
            .collect();
        let (region, api_key) = (
            code.find("'region'").unwrap(),
            code.find("`api_key`").unwrap(),
        );
        assert_eq!(reads, [("region", 10 + region), ("api_key", 10 + api_key)]);
        assert!(!facts.reads_all);
        assert!(
            analyze(
                "client.iparams.get().then(all => all)",
                "a.js",
                0,
                Script::Frontend
            )
            .reads_all
        );
        assert!(analyze("client.iparams.get(name)", "a.js", 0, Script::Frontend).reads_all);
    }

    #[test]
    fn whole_object_reads() {
        let code = "async function f(client) { const ip = await client.iparams.get(); \
                    ip.region; ip['zone']; const { a, b: c } = await client.iparams.get(); }\n\
                    client.iparams.get().then(p => p.token);\n\
                    client.iparams.get().then(function (q) { return q.secret; });\n\
                    client.iparams.get().then(({ d }) => d);\n\
                    function g(ip, p) { return ip.other + p.more; }";
        let facts = analyze(code, "app/scripts/app.js", 0, Script::Frontend);
        let keys: Vec<&str> = facts.reads.iter().map(|r| r.key.as_str()).collect();
        assert_eq!(keys, ["region", "zone", "a", "b", "token", "secret", "d"]);
        // The object given whole still reads every iparam, for unused-iparam.
        assert!(facts.reads_all);
        let region = &facts.reads[0];
        assert_eq!(&code[region.span.start..region.span.end], "region");
        // Installation page scripts get no such object: nothing is read there.
        let page = analyze(code, "config/assets/iparams.js", 0, Script::Callbacks);
        assert!(page.reads.is_empty(), "{:?}", page.reads);
    }

    #[test]
    fn serverless_reads() {
        let code = "exports = { onTicketCreate(args) { const { region, 'api-key': key } = args.iparams; \
                    return payload.iparams.zone + args.iparams['token'] + iparams.other; } };";
        let facts = analyze(code, "server/server.js", 0, Script::Serverless);
        let mut keys: Vec<_> = facts.reads.iter().map(|r| r.key.as_str()).collect();
        keys.sort_unstable();
        assert_eq!(keys, ["api-key", "other", "region", "token", "zone"]);
        assert!(!facts.reads_all);
        assert!(analyze("args.iparams[k]", "s.js", 0, Script::Serverless).reads_all);
    }

    #[test]
    fn placeholders_of_legacy_requests() {
        let code = r#"
            client.request.get("https://<%= iparam.domain %>.freshdesk.com/api/v2/tickets", {
                headers: {Authorization: "Basic " + "<%= encode(iparam.api_key) %>"}
            });
            $request.post(`https://<%= iparam.$site.url %>/${path}?k=<%= iparam.token %>`, options);
            client.request.invokeTemplate("t", {body: "<%= iparam.not_legacy %>"});
            const label = "<%= iparam.not_a_request %>";
            const url = "https://<%= iparam.kept %>.example.com";
            let options;
            options = { headers: { "X-Key": `<%= iparam.kept_too %>` } };
            function later() { client.request.get(url, options); }
        "#;
        let facts = analyze(code, "app/scripts/app.js", 5, Script::Frontend);
        let reads: Vec<_> = facts
            .request_reads
            .iter()
            .map(|r| (r.key.as_str(), &code[r.span.start - 5..r.span.end - 5]))
            .collect();
        assert_eq!(
            reads,
            [
                ("domain", "domain"),
                ("api_key", "api_key"),
                ("site", "site"),
                ("token", "token"),
                ("kept", "kept"),
                ("kept_too", "kept_too")
            ]
        );
        assert!(facts.reads.is_empty());
        assert!(!facts.reads_all);
    }

    #[test]
    fn syntax_errors_are_positioned_and_the_rest_still_read() {
        let facts = analyze(
            "function ok() {}\nfunction broken( {",
            "config/assets/iparams.js",
            0,
            Script::Callbacks,
        );
        assert!(!facts.syntax_errors.is_empty());
        assert!(facts.syntax_errors[0].span.start > 16);
    }

    #[test]
    fn inline_scripts_of_html() {
        let html = "<html><script src=\"x.js\"></script><SCRIPT>a()</SCRIPT><script type=\"text/template\">b</script><script type=\"module\">c()</script></html>";
        let scripts: Vec<_> = HtmlPage::read(html)
            .inline_code()
            .map(|code| &html[code.start..code.end])
            .collect();
        assert_eq!(scripts, ["a()", "c()"]);
    }
}

#[cfg(test)]
mod depth_tests {
    use super::*;

    /// What `analyze` gives on a thread with the standard library's stack (2 MiB), as the
    /// preview's and the language server's threads have.
    fn on_a_small_stack(text: String) -> JsFacts {
        std::thread::Builder::new()
            .stack_size(2 * 1024 * 1024)
            .spawn(move || analyze(&text, "config/iparams.html", 0, Script::Callbacks))
            .expect("a thread")
            .join()
            .expect("no panic")
    }

    #[test]
    fn deep_scripts_are_read_on_a_stack_for_them_or_refused_never_aborted() {
        let blocks = 12_000;
        let read = on_a_small_stack(format!(
            "{}{}\nfunction validate() {{ return utils.get(\"key\"); }}",
            "{".repeat(blocks),
            "}".repeat(blocks)
        ));
        assert_eq!(read.syntax_errors, []);
        assert_eq!(read.utils_calls.len(), 1);
        for text in [
            format!("x = {}1;", "!".repeat(60_000)),
            format!("{}{}", "{".repeat(50_000), "}".repeat(50_000)),
        ] {
            let refused = on_a_small_stack(text);
            assert_eq!(refused.syntax_errors.len(), 1);
            let error = &refused.syntax_errors[0];
            assert_eq!(error.unread, Some(Unread::TooDeep));
            assert!(error.message.contains("levels deep"), "{}", error.message);
        }
    }
}
