//! What a JavaScript expression is as a literal, told from its syntax alone: read by the
//! scripts' analysis (js.rs) and by the invocations of templates (invocations.rs) alike.

use oxc_ast::ast::{ArrayExpressionElement, Expression};

/// The JavaScript type of a literal, as far as it can be told without running the code.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Literal {
    String,
    Number,
    Boolean,
    Null,
    StringArray,
    /// An array with something other than string literals.
    Array,
    Object,
    /// Not a literal: a variable, a call...
    Computed,
}

impl Literal {
    pub const fn described(self) -> &'static str {
        match self {
            Literal::String => "a string",
            Literal::Number => "a number",
            Literal::Boolean => "a boolean",
            Literal::Null => "null",
            Literal::StringArray => "an array of strings",
            Literal::Array => "an array",
            Literal::Object => "an object",
            Literal::Computed => "a computed value",
        }
    }
}

/// A string literal, or a template literal without substitutions.
pub(crate) fn literal_string<'e>(
    expression: &'e Expression<'_>,
) -> Option<(&'e str, oxc_span::Span)> {
    match expression.get_inner_expression() {
        Expression::StringLiteral(literal) => Some((literal.value.as_str(), literal.span)),
        Expression::TemplateLiteral(template) if template.expressions.is_empty() => template
            .quasis
            .first()
            .and_then(|q| q.value.cooked.as_ref())
            .map(|cooked| (cooked.as_str(), template.span)),
        _ => None,
    }
}

pub(crate) fn literal_kind(expression: &Expression<'_>) -> Literal {
    match expression.get_inner_expression() {
        Expression::StringLiteral(_) => Literal::String,
        Expression::TemplateLiteral(template) if template.expressions.is_empty() => Literal::String,
        Expression::NumericLiteral(_) => Literal::Number,
        Expression::UnaryExpression(unary)
            if matches!(unary.argument, Expression::NumericLiteral(_)) =>
        {
            Literal::Number
        }
        Expression::BooleanLiteral(_) => Literal::Boolean,
        Expression::NullLiteral(_) => Literal::Null,
        Expression::ObjectExpression(_) => Literal::Object,
        Expression::ArrayExpression(array) => {
            let strings = array.elements.iter().all(|element| match element {
                ArrayExpressionElement::SpreadElement(_) | ArrayExpressionElement::Elision(_) => {
                    false
                }
                other => other
                    .as_expression()
                    .is_some_and(|e| literal_kind(e) == Literal::String),
            });
            if strings {
                Literal::StringArray
            } else {
                Literal::Array
            }
        }
        _ => Literal::Computed,
    }
}
