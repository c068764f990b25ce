//! The object of every iparam a page's script is given by `client.iparams.get()` with no
//! argument, followed to the names that hold it: `const ip = await client.iparams.get();
//! ip.region`, `client.iparams.get().then(p => p.region)`. Each property read of such a name is a
//! read of that key, as `client.iparams.get("region")` is.

use oxc_ast::ast::{Argument, CallExpression, Expression};
use oxc_span::Span;

/// The names that hold the whole iparams object, each with the code where it does: the
/// function it is declared in, or the callback it is the parameter of.
#[derive(Debug, Default)]
pub(super) struct WholeIparams {
    bindings: Vec<(String, Span)>,
    /// The functions being visited, innermost last, each by its span; the script's own first.
    scopes: Vec<Span>,
}

impl WholeIparams {
    /// The visit enters the function (or script) at `span`.
    pub(super) fn enter(&mut self, span: Span) {
        self.scopes.push(span);
    }

    pub(super) fn leave(&mut self) {
        self.scopes.pop();
    }

    /// `name` holds the object in the function being visited.
    pub(super) fn bind(&mut self, name: &str) {
        if let Some(&scope) = self.scopes.last() {
            self.bindings.push((name.to_owned(), scope));
        }
    }

    /// `name` holds the object in the code at `scope` (a callback it is the parameter of).
    pub(super) fn bind_in(&mut self, name: &str, scope: Span) {
        self.bindings.push((name.to_owned(), scope));
    }

    /// Whether `name`, used at `at`, holds the object there. Names are followed within the
    /// code where they are bound, not through shadowing: a parameter of the same name in a
    /// function nested there is taken for the object too (rare, and named so on purpose).
    pub(super) fn holds(&self, name: &str, at: Span) -> bool {
        self.bindings
            .iter()
            .any(|(bound, scope)| bound == name && scope.start <= at.start && at.end <= scope.end)
    }
}

/// Whether `expression` is (an awaited) `<anything>.iparams.get()` with no argument.
pub(super) fn is_whole_get(expression: &Expression<'_>) -> bool {
    let expression = match expression.get_inner_expression() {
        Expression::AwaitExpression(awaited) => awaited.argument.get_inner_expression(),
        other => other,
    };
    matches!(expression, Expression::CallExpression(call) if gets_all(call))
}

/// Whether `call` is `<anything>.iparams.get()`, with no argument.
fn gets_all(call: &CallExpression<'_>) -> bool {
    let Some(member) = call.callee.get_inner_expression().as_member_expression() else {
        return false;
    };
    call.arguments.is_empty()
        && member.static_property_name() == Some("get")
        && matches!(member.object().get_inner_expression(),
            Expression::StaticMemberExpression(iparams) if iparams.property.name == "iparams")
}

/// The callback of `<whole get>.then(callback)`, when `call` is one.
pub(super) fn then_callback<'b, 'a>(call: &'b CallExpression<'a>) -> Option<&'b Argument<'a>> {
    let member = call.callee.get_inner_expression().as_member_expression()?;
    (member.static_property_name() == Some("then") && is_whole_get(member.object()))
        .then(|| call.arguments.first())
        .flatten()
}
