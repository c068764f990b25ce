//! Names a function reads on every call before it can return, which cannot be read there: a
//! `let`, `const` or `class` of the function read before its declaration has run (the
//! temporal dead zone: `const email = email.value`), or a name no scope of the script
//! declares. Read with oxc's semantic analysis (which reference is bound to which
//! declaration); only what runs on every call counts: not a branch, not the right of `&&`, not
//! a callback, not a `typeof`, nothing after a `return` that may run first.

use oxc_ast::ast::{
    ArrowFunctionExpression, AssignmentExpression, AssignmentTarget, ChainExpression, Class,
    ConditionalExpression, Function, IdentifierReference, LogicalExpression, ReturnStatement,
    Statement, UnaryExpression, UnaryOperator,
};
use oxc_ast_visit::{Visit, walk};
use oxc_semantic::{ReferenceId, Semantic, SymbolFlags, SymbolId};
use oxc_syntax::scope::ScopeFlags;

use crate::span::Span;

/// Why reading a name throws.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Unreadable {
    /// A `let`, `const` or `class` of the function, whose name is written at `declared`, read
    /// before its declaration has run.
    BeforeDeclaration { declared: Span },
    /// No scope of the script declares it: it is a global of the page or of the browser, or
    /// nothing. `references` counts the script's reads and writes of a global of that name.
    Undeclared { references: usize },
}

/// A name read on every call, which throws unless something outside the script defines it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AlwaysRead {
    pub name: String,
    pub span: Span,
    pub unreadable: Unreadable,
}

/// The reads of `statements`, the body of a function whose body spans `body`, that throw on
/// every call, by `semantic` (the analysis of the script).
pub(crate) fn always_throws(
    statements: &[Statement<'_>],
    body: oxc_span::Span,
    semantic: &Semantic<'_>,
    shift: &dyn Fn(oxc_span::Span) -> Span,
) -> Vec<AlwaysRead> {
    let mut reads = EveryCall::default();
    for statement in statements {
        if !reads.statement(statement) {
            break;
        }
    }
    let scoping = semantic.scoping();
    let mut found = Vec::new();
    let mut bound = Vec::new();
    for event in reads.found {
        let (name, span, reference) = match event {
            Event::Bound(symbol) => {
                bound.extend(symbol);
                continue;
            }
            Event::Read {
                name,
                span,
                reference: Some(reference),
            } => (name, span, reference),
            Event::Read { .. } => continue,
        };
        let reference = scoping.get_reference(reference);
        if reference.is_write() {
            continue;
        }
        let unreadable = match reference.symbol_id() {
            Some(symbol) => {
                let flags = scoping.symbol_flags(symbol);
                let lexical =
                    flags.intersects(SymbolFlags::BlockScopedVariable | SymbolFlags::Class);
                let declared = scoping.symbol_span(symbol);
                // Declared in this function, and read before its declaration has run: a
                // `const x = x.value` reads `x` inside its own declarator, before it is bound.
                let own = body.start <= declared.start && declared.end <= body.end;
                if !lexical || !own || bound.contains(&symbol) {
                    continue;
                }
                Unreadable::BeforeDeclaration {
                    declared: shift(declared),
                }
            }
            None => {
                let all = scoping.root_unresolved_references().get(name.as_str());
                let writes = all
                    .into_iter()
                    .flatten()
                    .any(|id| scoping.get_reference(*id).is_write());
                if writes {
                    continue;
                }
                Unreadable::Undeclared {
                    references: all.map_or(0, |all| all.len()),
                }
            }
        };
        found.push(AlwaysRead {
            name,
            span: shift(span),
            unreadable,
        });
    }
    found
}

/// What runs on every call, in order.
enum Event {
    Read {
        name: String,
        span: oxc_span::Span,
        reference: Option<ReferenceId>,
    },
    /// A declaration of the function has run: its name can be read from here on.
    Bound(Option<SymbolId>),
}

/// The identifiers read on every call and the declarations run, in order, up to the first
/// statement after which the function may have returned.
#[derive(Default)]
struct EveryCall {
    found: Vec<Event>,
}

impl EveryCall {
    /// Reads what `statement` reads on every run of it; whether the statements after it run
    /// on every call too.
    fn statement(&mut self, statement: &Statement<'_>) -> bool {
        match statement {
            Statement::ExpressionStatement(statement) => {
                self.visit_expression(&statement.expression);
                true
            }
            Statement::VariableDeclaration(declaration) => {
                for declarator in &declaration.declarations {
                    if let Some(init) = &declarator.init {
                        self.visit_expression(init);
                    }
                    let names = declarator.id.get_binding_identifiers();
                    let bound = names.iter().map(|id| Event::Bound(id.symbol_id.get()));
                    self.found.extend(bound);
                }
                true
            }
            Statement::ClassDeclaration(class) => {
                let symbol = class.id.as_ref().and_then(|id| id.symbol_id.get());
                self.found.push(Event::Bound(symbol));
                true
            }
            Statement::BlockStatement(block) => block.body.iter().all(|s| self.statement(s)),
            Statement::IfStatement(choice) => {
                self.visit_expression(&choice.test);
                !may_leave(statement)
            }
            Statement::SwitchStatement(switch) => {
                self.visit_expression(&switch.discriminant);
                !may_leave(statement)
            }
            Statement::ReturnStatement(ret) => {
                if let Some(value) = &ret.argument {
                    self.visit_expression(value);
                }
                false
            }
            Statement::ThrowStatement(_) | Statement::LabeledStatement(_) => false,
            Statement::EmptyStatement(_)
            | Statement::FunctionDeclaration(_)
            | Statement::DebuggerStatement(_) => true,
            // Loops, `try`, classes: what they read runs only sometimes, or is caught.
            other => !may_leave(other),
        }
    }
}

impl<'a> Visit<'a> for EveryCall {
    fn visit_identifier_reference(&mut self, id: &IdentifierReference<'a>) {
        self.found.push(Event::Read {
            name: id.name.to_string(),
            span: id.span,
            reference: id.reference_id.get(),
        });
    }

    fn visit_assignment_expression(&mut self, assignment: &AssignmentExpression<'a>) {
        // Assigning a name is not reading it; the object of `a.b = …` is read.
        if !matches!(
            assignment.left,
            AssignmentTarget::AssignmentTargetIdentifier(_)
        ) && assignment.left.is_simple_assignment_target()
        {
            self.visit_assignment_target(&assignment.left);
        }
        self.visit_expression(&assignment.right);
    }

    fn visit_logical_expression(&mut self, logical: &LogicalExpression<'a>) {
        self.visit_expression(&logical.left);
    }

    fn visit_conditional_expression(&mut self, conditional: &ConditionalExpression<'a>) {
        self.visit_expression(&conditional.test);
    }

    fn visit_unary_expression(&mut self, unary: &UnaryExpression<'a>) {
        if !matches!(
            unary.operator,
            UnaryOperator::Typeof | UnaryOperator::Delete
        ) {
            walk::walk_unary_expression(self, unary);
        }
    }

    fn visit_chain_expression(&mut self, _: &ChainExpression<'a>) {}

    fn visit_function(&mut self, _: &Function<'a>, _: ScopeFlags) {}

    fn visit_arrow_function_expression(&mut self, _: &ArrowFunctionExpression<'a>) {}

    fn visit_class(&mut self, _: &Class<'a>) {}
}

/// Whether the function may return (or leave a labelled statement) inside `statement`.
fn may_leave(statement: &Statement<'_>) -> bool {
    #[derive(Default)]
    struct Leaves(bool);
    impl<'a> Visit<'a> for Leaves {
        fn visit_return_statement(&mut self, _: &ReturnStatement<'a>) {
            self.0 = true;
        }
        fn visit_statement(&mut self, statement: &Statement<'a>) {
            match statement {
                // A labelled `break` may skip what follows it.
                Statement::LabeledStatement(_) => self.0 = true,
                Statement::BreakStatement(brk) if brk.label.is_some() => self.0 = true,
                _ => walk::walk_statement(self, statement),
            }
        }
        fn visit_function(&mut self, _: &Function<'a>, _: ScopeFlags) {}
        fn visit_arrow_function_expression(&mut self, _: &ArrowFunctionExpression<'a>) {}
        fn visit_class(&mut self, _: &Class<'a>) {}
    }
    let mut leaves = Leaves::default();
    leaves.visit_statement(statement);
    leaves.0
}

#[cfg(test)]
mod tests {
    use oxc_allocator::Allocator;
    use oxc_parser::Parser;
    use oxc_semantic::SemanticBuilder;
    use oxc_span::SourceType;

    use super::*;
    use crate::app::page_functions::{Body, page_functions};

    /// What `postConfigs` in `code` reads that throws: each name, and whether it is declared
    /// (the names declared nowhere are the rule's to judge against the rest of the page).
    fn throws(code: &str) -> Vec<(String, bool)> {
        let allocator = Allocator::default();
        let parsed = Parser::new(&allocator, code, SourceType::cjs()).parse();
        assert!(parsed.diagnostics.is_empty(), "{code}");
        let semantic = SemanticBuilder::new().build(&parsed.program).semantic;
        let shift = |span: oxc_span::Span| Span::new(span.start as usize, span.end as usize);
        let functions = page_functions(&parsed.program, Some(&semantic), &shift);
        let Some(Body::PostConfigs(stored)) = functions.into_iter().map(|f| f.body).next() else {
            panic!("{code}");
        };
        stored
            .throws
            .into_iter()
            .map(|read| {
                let declared = matches!(read.unreadable, Unreadable::BeforeDeclaration { .. });
                (read.name, declared)
            })
            .collect()
    }

    #[test]
    fn a_lexical_name_read_before_its_declaration() {
        for code in [
            "function postConfigs() { const email = email.value; return { email }; }",
            "function postConfigs() { const a = { k: key }; let key = 1; return a; }",
            "function postConfigs() { send(new Form()); class Form {} return {}; }",
        ] {
            let found: Vec<_> = throws(code)
                .into_iter()
                .filter(|(_, declared)| *declared)
                .collect();
            assert_eq!(found.len(), 1, "{code}: {found:?}");
        }
    }

    #[test]
    fn a_name_declared_nowhere() {
        let code =
            "function postConfigs() { return { email: emial.value, region: document.title }; }";
        let found = throws(code);
        assert!(found.contains(&("emial".to_owned(), false)), "{found:?}");
    }

    #[test]
    fn reads_that_may_not_run_or_may_not_throw_are_quiet() {
        for code in [
            // Only under `typeof`, after `&&`, in a branch or a callback.
            "function postConfigs() { const v = typeof missing === 'undefined' ? 1 : 2; return { v }; }",
            "function postConfigs() { const v = ready && missing.value; return { v }; }",
            "function postConfigs() { if (ready) { return { v: missing.value }; } return {}; }",
            "function postConfigs() { const f = () => later; const later = 1; return { v: f() }; }",
            // After a `return` that may run first.
            "function postConfigs() { if (done) return {}; const a = b; const b = 1; return { a }; }",
            // In a `try`, or declared before the read, or by `var` (hoisted), or in a loop.
            "function postConfigs() { try { const a = a.value; } catch (e) {} return {}; }",
            "function postConfigs() { const a = 1; const b = a; var c = c; return { b, c }; }",
            "function postConfigs() { for (const f of fields) { use(x); } let x; return {}; }",
            // A global the script gives a value (in sloppy mode) is declared by that.
            "function setup() { helper = 1; }\nfunction postConfigs() { return { v: helper }; }",
        ] {
            let found = throws(code);
            let judged = ["missing", "later", "a", "b", "c", "x", "helper"];
            assert!(
                found
                    .iter()
                    .all(|(name, _)| !judged.contains(&name.as_str())),
                "{code}: {found:?}"
            );
        }
    }
}
