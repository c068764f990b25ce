//! The functions a custom installation page (config/iparams.html) defines for the product to
//! call: `postConfigs()`, whose returned object is what is stored (one property per iparam,
//! `__meta.secure` listing the secure ones), `getConfigs(configs)`, which fills the form from
//! stored values, and `validate()`, which lets INSTALL go on when it returns `true`. Read from
//! the syntax alone: the keys are known when the returned object can be read without running
//! anything (an object literal, a variable given one and then properties, a spread of such a
//! variable), and said to be unknown otherwise, never guessed.

use oxc_ast::ast::{
    ArrowFunctionExpression, AssignmentExpression, AssignmentTarget, BinaryExpression,
    BindingPattern, CallExpression, ComputedMemberExpression, ConditionalExpression, Expression,
    FormalParameters, Function, IdentifierReference, IfStatement, LogicalExpression,
    LogicalOperator, ObjectExpression, ObjectPattern, ObjectPropertyKind, Program, PropertyKey,
    ReturnStatement, Statement, StaticMemberExpression, UnaryExpression, UnaryOperator,
    VariableDeclarator,
};
use oxc_ast_visit::{Visit, walk};
use oxc_semantic::Semantic;
use oxc_span::GetSpan;
use oxc_syntax::scope::ScopeFlags;

use super::always_throws::{AlwaysRead, always_throws};
use super::held_object::{HeldObject, is_global_object};
use super::literals::{Literal, literal_kind, literal_string};
use crate::span::Span;

/// How a top-level name that is not a function declaration holds a function (for the
/// callbacks of iparams.json as for a custom page's functions).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FunctionValue {
    Arrow,
    Expression,
    WindowProperty,
}

/// The three functions the product calls on a custom page.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PageFunctionName {
    PostConfigs,
    GetConfigs,
    Validate,
}

impl PageFunctionName {
    pub const ALL: [PageFunctionName; 3] = [
        PageFunctionName::PostConfigs,
        PageFunctionName::GetConfigs,
        PageFunctionName::Validate,
    ];

    pub const fn name(self) -> &'static str {
        match self {
            PageFunctionName::PostConfigs => "postConfigs",
            PageFunctionName::GetConfigs => "getConfigs",
            PageFunctionName::Validate => "validate",
        }
    }

    fn of(name: &str) -> Option<Self> {
        Self::ALL
            .into_iter()
            .find(|function| function.name() == name)
    }
}

/// How a page function is defined.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Defined {
    /// `function postConfigs() {}` at the top level of a script: what the validator wants.
    Declaration,
    /// A top-level name given a function, or a property of `window`.
    Value(FunctionValue),
    /// A declaration inside a function or a block: not global, so the product cannot call it.
    Nested,
    /// Declared at the top level of a module script (`type="module"`), whose names are the
    /// module's own: not global either.
    InModule,
}

impl Defined {
    /// Whether the definition leaves a global function the product can call.
    pub fn is_global(self) -> bool {
        !matches!(self, Defined::Nested | Defined::InModule)
    }
}

/// Where the name of a property is written: an identifier, or the text inside a string's
/// quotes, so that every key's span is the key itself.
fn name_span(key: &PropertyKey<'_>) -> oxc_span::Span {
    match key {
        PropertyKey::StringLiteral(literal) => oxc_span::Span::new(
            literal.span.start + 1,
            literal
                .span
                .end
                .saturating_sub(1)
                .max(literal.span.start + 1),
        ),
        other => other.span(),
    }
}

/// The `id` of the page's field whose value `value` reads: `document.getElementById("id")`
/// or `document.querySelector("#id")` (or an element named by its id, as browsers allow), with
/// `.value`, `.checked` and calls on them (`.value.trim()`) looked through.
fn field_id(value: &Expression<'_>) -> Option<String> {
    let mut expression = value.get_inner_expression();
    loop {
        match expression {
            Expression::CallExpression(call) => {
                let callee = call.callee.get_inner_expression().as_member_expression()?;
                let method = callee.static_property_name()?;
                let by_id = matches!(method, "getElementById" | "querySelector");
                let on_document = matches!(callee.object().get_inner_expression(), Expression::Identifier(id) if id.name == "document");
                if by_id && on_document {
                    let argument = call.arguments.first()?.as_expression()?;
                    let (written, _) = literal_string(argument)?;
                    let id = match method {
                        "querySelector" => written.strip_prefix('#')?,
                        _ => written,
                    };
                    return Some(id.to_owned());
                }
                expression = callee.object().get_inner_expression();
            }
            Expression::StaticMemberExpression(member) => {
                let object = member.object.get_inner_expression();
                match (member.property.name.as_str(), object) {
                    ("value" | "checked", Expression::Identifier(id)) => {
                        return Some(id.name.to_string());
                    }
                    _ => expression = object,
                }
            }
            Expression::ChainExpression(chain) => {
                expression = chain
                    .expression
                    .as_member_expression()
                    .map(|m| m.object())?;
            }
            _ => return None,
        }
    }
}

/// What `postConfigs` returns, as far as it can be read.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Stored {
    /// Each property of the returned object (`__meta` aside), where its name is written
    /// (inside the quotes of a quoted key); a key returned on several paths once per place.
    pub keys: Vec<(String, Span)>,
    /// Every key returned is in `keys`: the object was read whole on every return.
    pub complete: bool,
    /// The string elements of `__meta.secure`, with where each is written.
    pub secure: Vec<(String, Span)>,
    /// `__meta.secure` was read whole (or there is no `__meta`).
    pub secure_complete: bool,
    /// Keys stored only sometimes: given in a branch (`if (key) config.key = key;`), or
    /// returned by some `return`s and not others.
    pub sometimes: Vec<String>,
    /// The keys whose value is read from a field of the page, with the field's `id`
    /// (`key: document.getElementById("id").value`, `key: id.value`).
    pub fields: Vec<(String, String)>,
    /// Each `_meta` property (one underscore), which the platform stores as an ordinary value
    /// and never reads as `__meta`: where its name is written, with the keys its `secure` lists.
    pub misspelt_meta: Vec<(Span, Vec<String>)>,
    /// The names it reads on every call that cannot be read there, so that it always throws
    /// unless the page defines them elsewhere.
    pub throws: Vec<AlwaysRead>,
}

/// What `getConfigs(configs)` reads of the stored values.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Filled {
    /// Each `configs.key` (or `{ key } = configs`), where it is written.
    pub keys: Vec<(String, Span)>,
    /// It uses `configs` in a way that is not a read of one named key (passed on, looped
    /// over): which keys it fills cannot be told.
    pub whole: bool,
}

/// What `validate` returns.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Validated {
    /// Each `return` whose value is certainly not a boolean, with what it is ("a string",
    /// "nothing").
    pub not_boolean: Vec<(Span, &'static str)>,
    /// It has no `return` at all: it returns `undefined`.
    pub never_returns: bool,
    pub is_async: bool,
}

/// What a page function does that the rules read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Body {
    PostConfigs(Stored),
    GetConfigs(Filled),
    Validate(Validated),
    /// A function value whose body is not in the script (`window.postConfigs = build()`).
    Unknown(PageFunctionName),
}

/// One definition of a page function.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PageFunction {
    /// Where its name is written.
    pub span: Span,
    pub defined: Defined,
    pub body: Body,
}

impl PageFunction {
    pub fn name(&self) -> PageFunctionName {
        match &self.body {
            Body::PostConfigs(_) => PageFunctionName::PostConfigs,
            Body::GetConfigs(_) => PageFunctionName::GetConfigs,
            Body::Validate(_) => PageFunctionName::Validate,
            Body::Unknown(name) => *name,
        }
    }
}

type Shift<'s> = &'s dyn Fn(oxc_span::Span) -> Span;

/// The page functions `program` defines, in the order they are written; with `semantic`, its
/// analysis, what `postConfigs` reads that throws.
pub(crate) fn page_functions<'a>(
    program: &Program<'a>,
    semantic: Option<&Semantic<'_>>,
    shift: Shift<'_>,
) -> Vec<PageFunction> {
    let mut finder = Finder {
        found: Vec::new(),
        shift,
        semantic,
        program: &program.body,
        top_level: program
            .body
            .iter()
            .filter_map(|statement| match statement {
                Statement::FunctionDeclaration(function) => Some(function.span),
                _ => None,
            })
            .collect(),
    };
    finder.visit_program(program);
    finder.found.sort_by_key(|function| function.span.start);
    finder.found
}

struct Finder<'s, 'b, 'a> {
    found: Vec<PageFunction>,
    shift: Shift<'s>,
    /// The script's statements, where a global the returned object is kept in is looked up.
    program: &'b [Statement<'a>],
    semantic: Option<&'b Semantic<'b>>,
    /// The spans of the top-level function declarations.
    top_level: Vec<oxc_span::Span>,
}

/// A function's parts that the readings look at.
struct Parts<'b, 'a> {
    params: &'b FormalParameters<'a>,
    /// The span of the body.
    body: oxc_span::Span,
    statements: &'b [Statement<'a>],
    /// The body of an arrow function written as an expression.
    expression: Option<&'b Expression<'a>>,
    is_async: bool,
}

impl<'b, 'a> Parts<'b, 'a> {
    fn of_function(function: &'b Function<'a>) -> Option<Self> {
        let body = function.body.as_ref()?;
        Some(Parts {
            params: &function.params,
            body: body.span,
            statements: &body.statements,
            expression: None,
            is_async: function.r#async,
        })
    }

    fn of_arrow(arrow: &'b ArrowFunctionExpression<'a>) -> Self {
        match arrow.body.as_function_body() {
            Some(body) => Parts {
                params: &arrow.params,
                body: body.span,
                statements: &body.statements,
                expression: None,
                is_async: arrow.r#async,
            },
            None => Parts {
                params: &arrow.params,
                body: arrow.body.span(),
                statements: &[],
                expression: arrow.body.as_expression(),
                is_async: arrow.r#async,
            },
        }
    }

    fn of_value(value: &'b Expression<'a>) -> Option<(Self, FunctionValue)> {
        match value.get_inner_expression() {
            Expression::ArrowFunctionExpression(arrow) => {
                Some((Parts::of_arrow(arrow), FunctionValue::Arrow))
            }
            Expression::FunctionExpression(function) => {
                Some((Parts::of_function(function)?, FunctionValue::Expression))
            }
            _ => None,
        }
    }
}

impl<'a> Finder<'_, '_, 'a> {
    fn found(
        &mut self,
        name: PageFunctionName,
        span: oxc_span::Span,
        defined: Defined,
        parts: Option<Parts<'_, 'a>>,
    ) {
        let body = match parts {
            None => Body::Unknown(name),
            Some(parts) => match name {
                PageFunctionName::PostConfigs => {
                    let mut stored = stored(&parts, self.program, self.shift);
                    if let Some(semantic) = self.semantic {
                        stored.throws =
                            always_throws(parts.statements, parts.body, semantic, self.shift);
                    }
                    Body::PostConfigs(stored)
                }
                PageFunctionName::GetConfigs => Body::GetConfigs(filled(&parts, self.shift)),
                PageFunctionName::Validate => Body::Validate(validated(&parts, self.shift)),
            },
        };
        self.found.push(PageFunction {
            span: (self.shift)(span),
            defined,
            body,
        });
    }
}

impl<'a> Visit<'a> for Finder<'_, '_, 'a> {
    fn visit_function(&mut self, function: &Function<'a>, flags: ScopeFlags) {
        if function.is_declaration()
            && let Some(id) = &function.id
            && let Some(name) = PageFunctionName::of(&id.name)
        {
            let defined = if self.top_level.contains(&function.span) {
                Defined::Declaration
            } else {
                Defined::Nested
            };
            self.found(name, id.span, defined, Parts::of_function(function));
        }
        walk::walk_function(self, function, flags);
    }

    fn visit_variable_declarator(&mut self, declarator: &VariableDeclarator<'a>) {
        if let (BindingPattern::BindingIdentifier(id), Some(init)) =
            (&declarator.id, &declarator.init)
            && let Some(name) = PageFunctionName::of(&id.name)
            && let Some((parts, how)) = Parts::of_value(init)
        {
            self.found(name, id.span, Defined::Value(how), Some(parts));
        }
        walk::walk_variable_declarator(self, declarator);
    }

    fn visit_assignment_expression(&mut self, assignment: &AssignmentExpression<'a>) {
        if let Some(member) = assignment.left.as_member_expression()
            && matches!(member.object(), Expression::Identifier(id) if matches!(id.name.as_str(), "window" | "self" | "globalThis"))
            && let Some(name) = member.static_property_name().and_then(PageFunctionName::of)
        {
            let parts = Parts::of_value(&assignment.right).map(|(parts, _)| parts);
            self.found(
                name,
                member.span(),
                Defined::Value(FunctionValue::WindowProperty),
                parts,
            );
        }
        walk::walk_assignment_expression(self, assignment);
    }
}

/// Calls `each` on every statement of `statements` that holds no statements of its own, with
/// whether it runs only sometimes (in a branch of an `if`, `switch` or `try`, or in a loop),
/// walking into blocks but not into the functions inside them. Written by hand, since the
/// visitor's lifetimes cannot lend out the nodes.
fn each_statement<'b, 'a>(
    statements: &'b [Statement<'a>],
    branch: bool,
    each: &mut impl FnMut(&'b Statement<'a>, bool),
) {
    for statement in statements {
        let mut inner = |statements: &'b [Statement<'a>]| each_statement(statements, true, each);
        match statement {
            Statement::BlockStatement(block) => each_statement(&block.body, branch, each),
            Statement::IfStatement(choice) => {
                inner(std::slice::from_ref(&choice.consequent));
                if let Some(alternate) = &choice.alternate {
                    inner(std::slice::from_ref(alternate));
                }
            }
            Statement::TryStatement(attempt) => {
                inner(&attempt.block.body);
                if let Some(handler) = &attempt.handler {
                    inner(&handler.body.body);
                }
                if let Some(finalizer) = &attempt.finalizer {
                    inner(&finalizer.body);
                }
            }
            Statement::SwitchStatement(switch) => {
                for case in &switch.cases {
                    inner(&case.consequent);
                }
            }
            Statement::ForStatement(r#loop) => inner(std::slice::from_ref(&r#loop.body)),
            Statement::ForInStatement(r#loop) => inner(std::slice::from_ref(&r#loop.body)),
            Statement::ForOfStatement(r#loop) => inner(std::slice::from_ref(&r#loop.body)),
            Statement::WhileStatement(r#loop) => inner(std::slice::from_ref(&r#loop.body)),
            Statement::DoWhileStatement(r#loop) => inner(std::slice::from_ref(&r#loop.body)),
            Statement::LabeledStatement(labeled) => {
                each_statement(std::slice::from_ref(&labeled.body), branch, each);
            }
            leaf => each(leaf, branch),
        }
    }
}

/// The `return` statements of a function's own body (not of the functions inside it).
fn returns<'b, 'a>(statements: &'b [Statement<'a>]) -> Vec<&'b ReturnStatement<'a>> {
    let mut found = Vec::new();
    each_statement(statements, false, &mut |statement, _| {
        if let Statement::ReturnStatement(ret) = statement {
            found.push(&**ret);
        }
    });
    found
}

/// The values a function returns, each with where it is returned: each `return` with its
/// argument, or an arrow's expression body.
fn returned<'b, 'a>(parts: &Parts<'b, 'a>) -> Vec<(oxc_span::Span, Option<&'b Expression<'a>>)> {
    match parts.expression {
        Some(expression) => vec![(expression.span(), Some(expression))],
        None => returns(parts.statements)
            .into_iter()
            .map(|ret| (ret.span, ret.argument.as_ref()))
            .collect(),
    }
}

/// `await x` and parentheses, looked through.
fn settled<'b, 'a>(expression: &'b Expression<'a>) -> &'b Expression<'a> {
    match expression.get_inner_expression() {
        Expression::AwaitExpression(awaited) => settled(&awaited.argument),
        other => other,
    }
}

/// The property of the returned object that the platform reads, not stores.
pub const META: &str = "__meta";

/// `__meta`, or `_meta`, which pages write for it by mistake.
fn is_meta(name: &str) -> bool {
    name == META || name == "_meta"
}

impl Stored {
    /// The entries of `__meta.secure` that join several keys in one string (`"a, b"`), with
    /// where each is written and the keys it joins: the platform looks for a key named
    /// `a, b`, so none of them is secure.
    pub fn joined_secure(&self) -> impl Iterator<Item = (Span, Vec<&str>)> {
        self.secure.iter().filter_map(|(entry, span)| {
            let keys: Vec<&str> = entry
                .split(',')
                .map(str::trim)
                .filter(|key| !key.is_empty())
                .collect();
            (entry.contains(',') && !keys.is_empty()).then_some((*span, keys))
        })
    }

    /// The entries of `__meta.secure` that name no key the object returns, with where each is
    /// written and the returned key it most likely means (`apiKey` for `api_key`).
    pub fn unreturned_secure(&self) -> impl Iterator<Item = (&str, Span, Option<&str>)> {
        let keys = || self.keys.iter().map(|(key, _)| key.as_str());
        self.secure.iter().filter_map(move |(entry, span)| {
            if keys().any(|key| key == entry) {
                return None;
            }
            Some((
                entry.as_str(),
                *span,
                crate::suggest::closest(entry, keys()),
            ))
        })
    }

    /// Nothing read yet, nothing missed yet.
    fn whole() -> Self {
        Stored {
            complete: true,
            secure_complete: true,
            ..Stored::default()
        }
    }
}

fn stored<'a>(parts: &Parts<'_, 'a>, program: &[Statement<'a>], shift: Shift<'_>) -> Stored {
    let mut stored = Stored::whole();
    let values = returned(parts);
    if values.is_empty() {
        stored.complete = false;
    }
    // The keys each `return` returns on every path through the body.
    let mut always_returned: Vec<Vec<String>> = Vec::new();
    for (_, value) in values {
        let Some(value) = value else {
            stored.complete = false;
            continue;
        };
        let mut reader = StoredReader {
            statements: parts.statements,
            program,
            shift,
            stored: Stored::whole(),
            depth: 0,
            branched: Vec::new(),
        };
        reader.value(value);
        let always = reader.stored.keys.iter().map(|(key, _)| key);
        let always = always.filter(|key| !reader.branched.contains(key));
        always_returned.push(always.cloned().collect());
        stored.keys.extend(reader.stored.keys);
        stored.secure.extend(reader.stored.secure);
        stored.fields.extend(reader.stored.fields);
        stored.misspelt_meta.extend(reader.stored.misspelt_meta);
        stored.complete &= reader.stored.complete;
        stored.secure_complete &= reader.stored.secure_complete;
    }
    for (key, _) in &stored.keys {
        let every = always_returned.iter().all(|always| always.contains(key));
        if !every && !stored.sometimes.contains(key) {
            stored.sometimes.push(key.clone());
        }
    }
    stored
}

struct StoredReader<'b, 'a, 's> {
    /// The body, where variables of the returned object are looked up.
    statements: &'b [Statement<'a>],
    /// The whole script, where a global the object is kept in is looked up.
    program: &'b [Statement<'a>],
    shift: Shift<'s>,
    stored: Stored,
    /// How many variables deep the reading is (`...a` where `a` spreads `b`...).
    depth: usize,
    /// Keys given in a branch of the body, so stored only sometimes.
    branched: Vec<String>,
}

impl<'a> StoredReader<'_, 'a, '_> {
    fn value(&mut self, value: &Expression<'a>) {
        match settled(value) {
            Expression::ObjectExpression(object) => self.object(object),
            Expression::Identifier(id) if self.depth < 8 => {
                self.depth += 1;
                self.variable(&id.name);
                self.depth -= 1;
            }
            // `return window.iparams`
            Expression::StaticMemberExpression(member)
                if self.depth < 8 && is_global_object(&member.object) =>
            {
                self.depth += 1;
                self.global(&member.property.name);
                self.depth -= 1;
            }
            _ => self.stored.complete = false,
        }
    }

    fn object(&mut self, object: &ObjectExpression<'a>) {
        for property in &object.properties {
            match property {
                ObjectPropertyKind::ObjectProperty(property) => match property.key.static_name() {
                    Some(name) if is_meta(&name) => {
                        self.meta_property(&name, name_span(&property.key), &property.value);
                    }
                    Some(name) => {
                        if let Some(id) = field_id(&property.value) {
                            self.stored.fields.push((name.to_string(), id));
                        }
                        let span = (self.shift)(name_span(&property.key));
                        self.stored.keys.push((name.into_owned(), span));
                    }
                    None => self.stored.complete = false,
                },
                ObjectPropertyKind::SpreadProperty(spread) => self.value(&spread.argument),
            }
        }
    }

    /// A `__meta` property given `value`, or a `_meta` one, whose name is written at `span`.
    fn meta_property(&mut self, name: &str, span: oxc_span::Span, value: &Expression<'a>) {
        let secure = self.meta(value);
        if name == META {
            self.stored.secure.extend(secure);
        } else {
            let keys = secure.into_iter().map(|(key, _)| key).collect();
            self.stored.misspelt_meta.push(((self.shift)(span), keys));
        }
    }

    /// The keys a `__meta` object's `secure` lists, with where each is written.
    fn meta(&mut self, meta: &Expression<'a>) -> Vec<(String, Span)> {
        let mut secure = Vec::new();
        let Expression::ObjectExpression(meta) = meta.get_inner_expression() else {
            self.stored.secure_complete = false;
            return secure;
        };
        for property in &meta.properties {
            let ObjectPropertyKind::ObjectProperty(property) = property else {
                self.stored.secure_complete = false;
                continue;
            };
            if property.key.static_name().as_deref() != Some("secure") {
                continue;
            }
            let Expression::ArrayExpression(keys) = property.value.get_inner_expression() else {
                self.stored.secure_complete = false;
                continue;
            };
            for element in &keys.elements {
                match element.as_expression().and_then(literal_string) {
                    Some((key, span)) => secure.push((key.to_owned(), (self.shift)(span))),
                    None => self.stored.secure_complete = false,
                }
            }
        }
        secure
    }

    /// The object held by the variable `name` of the body: its initial object, then each
    /// property given to it (`config.key = …`, `Object.assign(config, {…})`).
    fn variable(&mut self, name: &str) {
        let mut uses = VariableUses {
            name,
            objects: Vec::new(),
            keys: Vec::new(),
            metas: Vec::new(),
            in_branch: false,
            unknown: false,
            declared: false,
            handled: 0,
        };
        each_statement(self.statements, false, &mut |statement, branch| {
            uses.statement(statement, branch);
        });
        if !uses.declared {
            self.global(name);
            return;
        }
        // Every use in the body, callbacks included: keys given anywhere the statements above
        // do not show (in a callback, by a helper the object is handed to) are unknown.
        let held = HeldObject::count(name, false, |held| {
            self.statements.iter().for_each(|s| held.visit_statement(s));
        });
        if uses.unknown || held.escapes() || held.writes != uses.handled {
            self.stored.complete = false;
        }
        for (key, span, branched) in uses.keys {
            if key == META {
                continue;
            }
            if branched {
                self.branched.push(key.clone());
            }
            self.stored.keys.push((key, (self.shift)(span)));
        }
        for ((name, span), meta) in uses.metas {
            self.meta_property(&name, span, meta);
        }
        for (object, branched) in uses.objects {
            let before = self.stored.keys.len();
            self.object(object);
            if branched {
                let given = self.stored.keys[before..]
                    .iter()
                    .map(|(key, _)| key.clone());
                self.branched.extend(given.collect::<Vec<_>>());
            }
        }
    }

    /// The object kept in the global `name` (`window.iparams = {…}; … return window.iparams`):
    /// known when the script gives it exactly one object literal, at its top level, and
    /// otherwise only the stored values `getConfigs` receives, keeps it nowhere else and hands
    /// it to nothing; the properties given to it elsewhere are stored only sometimes.
    fn global(&mut self, name: &str) {
        let held = HeldObject::count(name, true, |held| {
            self.program.iter().for_each(|s| held.visit_statement(s));
        });
        let mut literals = Vec::new();
        let mut declared_literals = 0;
        let mut declared_otherwise = false;
        each_statement(self.program, false, &mut |statement, _| match statement {
            Statement::VariableDeclaration(declaration) => {
                for declarator in &declaration.declarations {
                    let BindingPattern::BindingIdentifier(id) = &declarator.id else {
                        continue;
                    };
                    if id.name != name {
                        continue;
                    }
                    match declarator
                        .init
                        .as_ref()
                        .map(Expression::get_inner_expression)
                    {
                        Some(Expression::ObjectExpression(object)) => {
                            declared_literals += 1;
                            literals.push(object);
                        }
                        _ => declared_otherwise = true,
                    }
                }
            }
            Statement::ExpressionStatement(statement) => {
                if let Expression::AssignmentExpression(assignment) = &statement.expression
                    && let Expression::ObjectExpression(object) =
                        assignment.right.get_inner_expression()
                    && global_target(&assignment.left, name)
                {
                    literals.push(object);
                }
            }
            _ => {}
        });
        let [literal] = literals[..] else {
            self.stored.complete = false;
            return;
        };
        if held.escapes()
            || held.other_values
            || declared_otherwise
            || held.literals + declared_literals != 1
        {
            self.stored.complete = false;
            return;
        }
        let before = self.stored.keys.len();
        self.object(literal);
        let always: Vec<String> = self.stored.keys[before..]
            .iter()
            .map(|(key, _)| key.clone())
            .collect();
        for key in held.keys {
            match key {
                Some((key, span)) => {
                    if !always.contains(&key) {
                        self.branched.push(key.clone());
                    }
                    self.stored.keys.push((key, (self.shift)(span)));
                }
                None => self.stored.complete = false,
            }
        }
    }
}

/// `name = …` or `window.name = …`.
fn global_target(target: &AssignmentTarget<'_>, name: &str) -> bool {
    match target {
        AssignmentTarget::AssignmentTargetIdentifier(id) => id.name == name,
        AssignmentTarget::StaticMemberExpression(member) => {
            member.property.name == name && is_global_object(&member.object)
        }
        _ => false,
    }
}

/// What the body of `postConfigs` does with one variable.
struct VariableUses<'n, 'b, 'a> {
    name: &'n str,
    /// Objects given to it whole (its initial value, `Object.assign`'s sources, `__meta`), with
    /// whether in a branch.
    objects: Vec<(&'b ObjectExpression<'a>, bool)>,
    /// Keys given one by one, with whether in a branch.
    keys: Vec<(String, oxc_span::Span, bool)>,
    /// What is given to its `__meta` (or `_meta`) property, with the name as written.
    metas: Vec<((String, oxc_span::Span), &'b Expression<'a>)>,
    /// The statement being read runs only sometimes (in a branch or a loop).
    in_branch: bool,
    /// It is given something that is not an object literal.
    unknown: bool,
    declared: bool,
    /// The assignments to it or its properties read, and the `Object.assign` calls onto it.
    handled: usize,
}

impl<'b, 'a> VariableUses<'_, 'b, 'a> {
    fn holds(&self, expression: &Expression<'_>) -> bool {
        matches!(expression.get_inner_expression(), Expression::Identifier(id) if id.name == self.name)
    }

    fn given(&mut self, value: &'b Expression<'a>) {
        match value.get_inner_expression() {
            Expression::ObjectExpression(object) => self.objects.push((object, self.in_branch)),
            _ => self.unknown = true,
        }
    }

    /// A statement of the body that holds no other, run only sometimes when `branch`.
    fn statement(&mut self, statement: &'b Statement<'a>, branch: bool) {
        self.in_branch = branch;
        match statement {
            Statement::VariableDeclaration(declaration) => {
                for declarator in &declaration.declarations {
                    if let BindingPattern::BindingIdentifier(id) = &declarator.id
                        && id.name == self.name
                    {
                        self.declared = true;
                        if let Some(init) = &declarator.init {
                            self.given(init);
                        }
                    }
                }
            }
            Statement::ExpressionStatement(statement) => self.expression(&statement.expression),
            _ => {}
        }
    }

    fn expression(&mut self, expression: &'b Expression<'a>) {
        match expression.get_inner_expression() {
            Expression::AssignmentExpression(assignment) => self.assignment(assignment),
            Expression::SequenceExpression(sequence) => {
                sequence.expressions.iter().for_each(|e| self.expression(e));
            }
            Expression::CallExpression(call) => self.call(call),
            _ => {}
        }
    }

    fn assignment(&mut self, assignment: &'b AssignmentExpression<'a>) {
        match &assignment.left {
            AssignmentTarget::AssignmentTargetIdentifier(id) if id.name == self.name => {
                self.handled += 1;
                self.given(&assignment.right);
            }
            AssignmentTarget::StaticMemberExpression(member) if self.holds(&member.object) => {
                self.handled += 1;
                if is_meta(&member.property.name) {
                    let name = (member.property.name.to_string(), member.property.span);
                    self.metas.push((name, &assignment.right));
                } else {
                    let key = member.property.name.to_string();
                    self.keys.push((key, member.property.span, self.in_branch));
                }
            }
            AssignmentTarget::ComputedMemberExpression(member) if self.holds(&member.object) => {
                self.handled += 1;
                match literal_string(&member.expression) {
                    Some((key, span)) => self.keys.push((key.to_owned(), span, self.in_branch)),
                    None => self.unknown = true,
                }
            }
            _ => {}
        }
    }

    /// `Object.assign(config, {…})`.
    fn call(&mut self, call: &'b CallExpression<'a>) {
        let Some(member) = call.callee.get_inner_expression().as_member_expression() else {
            return;
        };
        let assign = matches!(member.object(), Expression::Identifier(id) if id.name == "Object")
            && member.static_property_name() == Some("assign");
        let mut arguments = call.arguments.iter().filter_map(|a| a.as_expression());
        if assign && arguments.next().is_some_and(|target| self.holds(target)) {
            self.handled += 1;
            arguments.for_each(|source| self.given(source));
        }
    }
}

fn filled(parts: &Parts<'_, '_>, shift: Shift<'_>) -> Filled {
    let mut reader = FilledReader {
        name: None,
        filled: Filled::default(),
        references: 0,
        understood: 0,
        shift,
    };
    match parts.params.items.first().map(|param| &param.pattern) {
        Some(BindingPattern::BindingIdentifier(id)) => reader.name = Some(id.name.to_string()),
        Some(BindingPattern::ObjectPattern(pattern)) => reader.destructured(pattern),
        Some(_) => reader.filled.whole = true,
        None => {}
    }
    if reader.name.is_some() {
        for statement in parts.statements {
            reader.visit_statement(statement);
        }
        if let Some(expression) = parts.expression {
            reader.visit_expression(expression);
        }
        reader.filled.whole |= reader.references > reader.understood;
    }
    reader.filled
}

struct FilledReader<'s> {
    /// The parameter that holds the stored values.
    name: Option<String>,
    filled: Filled,
    /// Every reference to it, and those read as one of the forms below.
    references: usize,
    understood: usize,
    shift: Shift<'s>,
}

impl FilledReader<'_> {
    fn is_values(&self, expression: &Expression<'_>) -> bool {
        matches!(expression.get_inner_expression(), Expression::Identifier(id) if Some(id.name.as_str()) == self.name.as_deref())
    }

    /// `{ region, mode: m } = configs` (or the parameter written so): the keys it names.
    fn destructured(&mut self, pattern: &ObjectPattern<'_>) {
        for property in &pattern.properties {
            match property.key.static_name() {
                Some(key) => {
                    let span = (self.shift)(property.key.span());
                    self.filled.keys.push((key.into_owned(), span));
                }
                None => self.filled.whole = true,
            }
        }
        self.filled.whole |= pattern.rest.is_some();
    }

    /// A test of whether the values are there at all (`if (!configs)`), which reads no key.
    fn test(&mut self, expression: &Expression<'_>) {
        if self.is_values(expression) {
            self.understood += 1;
        }
    }
}

impl<'a> Visit<'a> for FilledReader<'_> {
    fn visit_identifier_reference(&mut self, id: &IdentifierReference<'a>) {
        if Some(id.name.as_str()) == self.name.as_deref() {
            self.references += 1;
        }
    }

    fn visit_static_member_expression(&mut self, member: &StaticMemberExpression<'a>) {
        if self.is_values(&member.object) {
            self.understood += 1;
            let key = member.property.name.to_string();
            self.filled
                .keys
                .push((key, (self.shift)(member.property.span)));
        }
        walk::walk_static_member_expression(self, member);
    }

    fn visit_computed_member_expression(&mut self, member: &ComputedMemberExpression<'a>) {
        if self.is_values(&member.object)
            && let Some((key, span)) = literal_string(&member.expression)
        {
            self.understood += 1;
            self.filled.keys.push((key.to_owned(), (self.shift)(span)));
        }
        walk::walk_computed_member_expression(self, member);
    }

    fn visit_variable_declarator(&mut self, declarator: &VariableDeclarator<'a>) {
        if let (BindingPattern::ObjectPattern(pattern), Some(init)) =
            (&declarator.id, &declarator.init)
            && self.is_values(init)
        {
            self.understood += 1;
            self.destructured(pattern);
        }
        walk::walk_variable_declarator(self, declarator);
    }

    fn visit_unary_expression(&mut self, unary: &UnaryExpression<'a>) {
        if matches!(
            unary.operator,
            UnaryOperator::LogicalNot | UnaryOperator::Typeof
        ) {
            self.test(&unary.argument);
        }
        walk::walk_unary_expression(self, unary);
    }

    fn visit_binary_expression(&mut self, binary: &BinaryExpression<'a>) {
        if binary.operator.is_equality() {
            self.test(&binary.left);
            self.test(&binary.right);
        }
        walk::walk_binary_expression(self, binary);
    }

    fn visit_logical_expression(&mut self, logical: &LogicalExpression<'a>) {
        // `configs && configs.key` tests it; `configs || {}` hands it on.
        if logical.operator == LogicalOperator::And {
            self.test(&logical.left);
        }
        walk::walk_logical_expression(self, logical);
    }

    fn visit_if_statement(&mut self, branch: &IfStatement<'a>) {
        self.test(&branch.test);
        walk::walk_if_statement(self, branch);
    }

    fn visit_conditional_expression(&mut self, conditional: &ConditionalExpression<'a>) {
        self.test(&conditional.test);
        walk::walk_conditional_expression(self, conditional);
    }
}

fn validated(parts: &Parts<'_, '_>, shift: Shift<'_>) -> Validated {
    let values = returned(parts);
    let mut validated = Validated {
        never_returns: values.is_empty(),
        is_async: parts.is_async,
        ..Validated::default()
    };
    for (returned_at, value) in values {
        let what = match value.map(settled) {
            None => Some("nothing"),
            Some(Expression::Identifier(id)) if id.name == "undefined" => Some("undefined"),
            Some(value) => match literal_kind(value) {
                Literal::Boolean | Literal::Computed => None,
                other => Some(other.described()),
            },
        };
        if let Some(what) = what {
            // The value, or the `return;` that has none.
            let span = value.map_or(returned_at, GetSpan::span);
            validated.not_boolean.push((shift(span), what));
        }
    }
    validated
}

#[cfg(test)]
mod tests {
    use super::*;
    use oxc_allocator::Allocator;
    use oxc_parser::Parser;
    use oxc_span::SourceType;

    fn functions(code: &str) -> Vec<PageFunction> {
        let allocator = Allocator::default();
        let parsed = Parser::new(&allocator, code, SourceType::mjs()).parse();
        assert!(parsed.diagnostics.is_empty(), "{code}");
        let shift = |span: oxc_span::Span| Span::new(span.start as usize, span.end as usize);
        page_functions(&parsed.program, None, &shift)
    }

    fn keys<'t>(code: &'t str, keys: &[(String, Span)]) -> Vec<&'t str> {
        keys.iter()
            .map(|(_, span)| &code[span.start..span.end])
            .collect()
    }

    #[test]
    fn how_each_function_is_defined() {
        let code = "function postConfigs() { return {}; }\nconst getConfigs = (configs) => {};\ndocument.addEventListener('load', () => { function validate() { return true; } });\nwindow.validate = build();";
        let found: Vec<_> = functions(code)
            .iter()
            .map(|f| (f.name(), f.defined))
            .collect();
        assert_eq!(
            found,
            [
                (PageFunctionName::PostConfigs, Defined::Declaration),
                (
                    PageFunctionName::GetConfigs,
                    Defined::Value(FunctionValue::Arrow)
                ),
                (PageFunctionName::Validate, Defined::Nested),
                (
                    PageFunctionName::Validate,
                    Defined::Value(FunctionValue::WindowProperty)
                ),
            ]
        );
    }

    #[test]
    fn keys_of_an_object_literal_with_meta() {
        let code = "function postConfigs() {\n  return { __meta: { secure: ['api_key', \"token\"] }, domain: d.value, 'api_key': k.value, ...extra, mode: document.querySelector('.mode').value, team: document.getElementById('team-field').value.trim() };\n}";
        let [found] = functions(code).try_into().expect("one function");
        let Body::PostConfigs(stored) = found.body else {
            panic!("{found:?}")
        };
        assert_eq!(
            keys(code, &stored.keys),
            ["domain", "api_key", "mode", "team"]
        );
        let fields: Vec<_> = stored
            .fields
            .iter()
            .map(|(k, id)| (k.as_str(), id.as_str()))
            .collect();
        assert_eq!(
            fields,
            [("domain", "d"), ("api_key", "k"), ("team", "team-field")]
        );
        assert_eq!(keys(code, &stored.secure), ["'api_key'", "\"token\""]);
        // `extra` is not a variable of the function: what it adds is unknown.
        assert!(!stored.complete);
        assert!(stored.secure_complete);
    }

    #[test]
    fn meta_given_later_or_misspelt() {
        let code = "function postConfigs() {\n  const c = { token: t.value, pin: p.value };\n  c.__meta = { secure: ['token'] };\n  c._meta = { secure: ['pin'] };\n  return c;\n}";
        let [found] = functions(code).try_into().expect("one function");
        let Body::PostConfigs(stored) = found.body else {
            panic!("{found:?}")
        };
        let mut names: Vec<_> = stored.keys.iter().map(|(k, _)| k.as_str()).collect();
        names.sort_unstable();
        assert_eq!(names, ["pin", "token"]);
        assert!(stored.complete, "{stored:?}");
        assert_eq!(keys(code, &stored.secure), ["'token'"]);
        let [(misspelt, listed)] = &stored.misspelt_meta[..] else {
            panic!("{stored:?}")
        };
        assert_eq!(&code[misspelt.start..misspelt.end], "_meta");
        assert_eq!(listed, &["pin"]);
    }

    #[test]
    fn keys_of_a_variable_built_up() {
        let code = "function postConfigs() {\n  let config = { __meta: { secure: ['key'] }, email: e.value };\n  const base = { region: 'eu' };\n  if (a) { config.key = k.value; } else { config['url'] = u; }\n  Object.assign(config, { mode: 'x' }, { ...base });\n  return { ...config };\n}";
        let [found] = functions(code).try_into().expect("one function");
        let Body::PostConfigs(stored) = found.body else {
            panic!("{found:?}")
        };
        let mut names: Vec<_> = stored.keys.iter().map(|(k, _)| k.as_str()).collect();
        names.sort_unstable();
        assert_eq!(names, ["email", "key", "mode", "region", "url"]);
        assert!(stored.complete, "{stored:?}");
        assert_eq!(stored.secure.len(), 1);
        assert_eq!(stored.sometimes, ["key", "url"]);

        let code = "function postConfigs() { if (a) { return { a: 1, b: 2 }; } return { a: 3 }; }";
        let [found] = functions(code).try_into().expect("one function");
        let Body::PostConfigs(stored) = found.body else {
            panic!("{found:?}")
        };
        assert_eq!(stored.sometimes, ["b"]);
    }

    #[test]
    fn keys_given_in_any_loop_or_finally_are_read_as_sometimes() {
        let code = "function postConfigs() {\n  const c = { a: 1 };\n  while (more()) { c.b = 2; }\n  outer: do { c.d = 4; } while (0);\n  try {} finally { c.e = 5; }\n  return c;\n}";
        let [found] = functions(code).try_into().expect("one function");
        let Body::PostConfigs(stored) = found.body else {
            panic!("{found:?}")
        };
        let names: Vec<_> = stored.keys.iter().map(|(k, _)| k.as_str()).collect();
        assert_eq!(names, ["b", "d", "e", "a"]);
        assert_eq!(stored.sometimes, ["b", "d", "e"]);
    }

    #[test]
    fn a_computed_object_is_unknown() {
        for body in [
            "return build();",
            "const c = build(); c.a = 1; return c;",
            "return { [name]: 1 };",
            "",
        ] {
            let code = format!("function postConfigs() {{ {body} }}");
            let [found] = functions(&code).try_into().expect("one function");
            let Body::PostConfigs(stored) = found.body else {
                panic!("{found:?}")
            };
            assert!(!stored.complete, "{body}");
        }
    }

    #[test]
    fn keys_given_where_the_code_cannot_be_followed_are_unknown() {
        for body in [
            "const c = {}; fields.forEach(f => { c[f.id] = f.value; }); return c;",
            "const c = { a: 1 }; $('input').each(function () { c.b = $(this).val(); }); return c;",
            "const c = { a: 1 }; fill(c); return c;",
            "const c = { a: 1 }; for (const f of fields) c[f.name] = f.value; return c;",
            "const c = { a: 1 }; const d = c; d.b = 2; return c;",
            "const c = { a: 1 }; ready && (c.b = 2); return c;",
        ] {
            let code = format!("function postConfigs() {{ {body} }}");
            let [found] = functions(&code).try_into().expect("one function");
            let Body::PostConfigs(stored) = found.body else {
                panic!("{found:?}")
            };
            assert!(!stored.complete, "{body}");
        }
        // Reads, copies and logs of the object leave its keys known.
        let code = "function postConfigs() { const c = { a: 1 }; fields.forEach(f => check(c.a, f)); console.log(JSON.stringify(c)); return { ...c, b: c.a }; }";
        let [found] = functions(code).try_into().expect("one function");
        let Body::PostConfigs(stored) = found.body else {
            panic!("{found:?}")
        };
        assert!(stored.complete, "{stored:?}");
    }

    #[test]
    fn a_global_given_one_object_literal() {
        let code = "window.iparams = { language: undefined, auth: {} };\nfunction postConfigs() { return window.iparams; }\nfunction getConfigs(configs) { window.iparams = configs; }\nfunction pick(l) { window.iparams.language = l; window.iparams.mode = 'x'; }";
        let [found, _] = functions(code).try_into().expect("two functions");
        let Body::PostConfigs(stored) = found.body else {
            panic!("{found:?}")
        };
        assert_eq!(
            keys(code, &stored.keys),
            ["language", "auth", "language", "mode"]
        );
        assert!(stored.complete, "{stored:?}");
        assert_eq!(stored.sometimes, ["mode"]);

        for code in [
            // Two objects, or one built elsewhere: which is returned cannot be told.
            "window.iparams = { a: 1 };\nfunction reset() { window.iparams = { b: 2 }; }\nfunction postConfigs() { return window.iparams; }",
            "window.iparams = build();\nfunction postConfigs() { return window.iparams; }",
            "var iparams = { a: 1 };\nsetup(iparams);\nfunction postConfigs() { return iparams; }",
            "function postConfigs() { return window.iparams; }",
        ] {
            let found = functions(code)
                .into_iter()
                .find(|f| f.name() == PageFunctionName::PostConfigs)
                .expect("postConfigs");
            let Body::PostConfigs(stored) = found.body else {
                panic!("{found:?}")
            };
            assert!(!stored.complete, "{code}");
        }
        let code = "var iparams = { a: 1 };\nfunction postConfigs() { return iparams; }";
        let [found] = functions(code).try_into().expect("one function");
        let Body::PostConfigs(stored) = found.body else {
            panic!("{found:?}")
        };
        assert!(stored.complete, "{stored:?}");
        assert_eq!(keys(code, &stored.keys), ["a"]);
    }

    #[test]
    fn what_get_configs_reads() {
        let code = "function getConfigs(configs) {\n  if (!configs) return;\n  a.value = configs.domain || '';\n  const { region, mode: m } = configs;\n  b.checked = configs['flag'];\n}";
        let [found] = functions(code).try_into().expect("one function");
        let Body::GetConfigs(filled) = found.body else {
            panic!("{found:?}")
        };
        assert_eq!(
            keys(code, &filled.keys),
            ["domain", "region", "mode", "'flag'"]
        );
        assert!(!filled.whole);

        for code in [
            "function getConfigs(configs) { fill(configs); }",
            "function getConfigs(configs) { state.saved = configs || {}; }",
            "function getConfigs(configs) { for (const key in configs) {} }",
        ] {
            let [found] = functions(code).try_into().expect("one function");
            assert!(
                matches!(found.body, Body::GetConfigs(Filled { whole: true, .. })),
                "{code}"
            );
        }
    }

    #[test]
    fn what_validate_returns() {
        let cases = [
            ("function validate() { return true; }", vec![], false),
            (
                "async function validate() { try { return await ok(); } catch (e) { return false; } }",
                vec![],
                false,
            ),
            (
                "function validate() { if (a) return 'bad'; return; }",
                vec!["a string", "nothing"],
                false,
            ),
            ("function validate() { check(); }", vec![], true),
            ("function validate() { return x ? 1 : 0; }", vec![], false),
        ];
        for (code, not_boolean, never) in cases {
            let [found] = functions(code).try_into().expect("one function");
            let Body::Validate(validated) = found.body else {
                panic!("{found:?}")
            };
            let what: Vec<_> = validated.not_boolean.iter().map(|(_, w)| *w).collect();
            assert_eq!(what, not_boolean, "{code}");
            assert_eq!(validated.never_returns, never, "{code}");
        }
    }
}
