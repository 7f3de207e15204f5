//! URL Pattern Standard: 2.1.3 Parts, 2.1.5 Parsing (the pattern parser) and 2.2 Converting
//! part lists to regular expressions and back to pattern strings.

use std::collections::HashSet;
use std::fmt;

use super::tokenizer::{is_valid_name_code_point, tokenize, Policy, Token, TokenType};
use super::Error;

/// A part's type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PartType {
    FixedText,
    Regexp,
    SegmentWildcard,
    FullWildcard,
}

impl PartType {
    pub const fn name(self) -> &'static str {
        match self {
            PartType::FixedText => "fixed-text",
            PartType::Regexp => "regexp",
            PartType::SegmentWildcard => "segment-wildcard",
            PartType::FullWildcard => "full-wildcard",
        }
    }
}

/// A part's modifier.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Modifier {
    None,
    Optional,
    ZeroOrMore,
    OneOrMore,
}

impl Modifier {
    /// URL Pattern Standard: convert a modifier to a string.
    pub const fn as_str(self) -> &'static str {
        match self {
            Modifier::None => "",
            Modifier::Optional => "?",
            Modifier::ZeroOrMore => "*",
            Modifier::OneOrMore => "+",
        }
    }
}

/// A part: fixed text, or one matching group with its prefix, suffix and modifier.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Part {
    pub kind: PartType,
    pub value: String,
    pub modifier: Modifier,
    pub name: String,
    pub prefix: String,
    pub suffix: String,
}

impl fmt::Display for Part {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.kind.name())?;
        if !self.name.is_empty() {
            write!(f, " :{}", self.name)?;
        }
        if !self.value.is_empty() {
            write!(f, " {:?}", self.value)?;
        }
        if !self.prefix.is_empty() || !self.suffix.is_empty() {
            write!(f, " prefix {:?} suffix {:?}", self.prefix, self.suffix)?;
        }
        if self.modifier != Modifier::None {
            write!(f, " {}", self.modifier.as_str())?;
        }
        Ok(())
    }
}

/// The options struct: a component's delimiter and prefix code points ("" for none), and
/// whether its regular expression ignores case.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Options {
    pub delimiter_code_point: Option<char>,
    pub prefix_code_point: Option<char>,
    pub ignore_case: bool,
}

impl Options {
    /// The default options.
    pub const DEFAULT: Options = Options {
        delimiter_code_point: None,
        prefix_code_point: None,
        ignore_case: false,
    };
    /// The hostname options.
    pub const HOSTNAME: Options = Options {
        delimiter_code_point: Some('.'),
        prefix_code_point: None,
        ignore_case: false,
    };
    /// The pathname options.
    pub const PATHNAME: Options = Options {
        delimiter_code_point: Some('/'),
        prefix_code_point: Some('/'),
        ignore_case: false,
    };

    fn is_prefix(&self, s: &str) -> bool {
        let mut chars = s.chars();
        match (self.prefix_code_point, chars.next(), chars.next()) {
            (Some(p), Some(c), None) => p == c,
            _ => false,
        }
    }
}

/// The full wildcard regexp value.
pub const FULL_WILDCARD_REGEXP_VALUE: &str = ".*";

/// An encoding callback: canonicalizes fixed text of one component, or throws.
pub type EncodingCallback<'a> = &'a dyn Fn(&str) -> Result<String, Error>;

/// The pattern parser.
struct PatternParser<'a> {
    token_list: Vec<Token>,
    encoding_callback: EncodingCallback<'a>,
    segment_wildcard_regexp: String,
    part_list: Vec<Part>,
    /// The names of the part list's groups, for step 11 of add a part: looking through the
    /// list for each group took time quadratic in the groups.
    names: HashSet<String>,
    pending_fixed_value: String,
    index: usize,
    next_numeric_name: usize,
}

/// URL Pattern Standard: parse a pattern string.
pub fn parse_pattern_string(
    input: &str,
    options: &Options,
    encoding_callback: EncodingCallback<'_>,
) -> Result<Vec<Part>, Error> {
    let mut p = PatternParser {
        token_list: tokenize(input, Policy::Strict)?,
        encoding_callback,
        segment_wildcard_regexp: generate_segment_wildcard_regexp(options),
        part_list: Vec::new(),
        names: HashSet::new(),
        pending_fixed_value: String::new(),
        index: 0,
        next_numeric_name: 0,
    };
    // Step 3.
    while p.index < p.token_list.len() {
        let char_token = p.try_consume(TokenType::Char);
        let name_token = p.try_consume(TokenType::Name);
        let regexp_or_wildcard_token = p.try_consume_regexp_or_wildcard(name_token.is_some());
        // Step 3.4: a matching group, with at most a one-code-point prefix outside braces.
        if name_token.is_some() || regexp_or_wildcard_token.is_some() {
            let mut prefix = char_token.map(|t| t.value).unwrap_or_default();
            if !prefix.is_empty() && !options.is_prefix(&prefix) {
                p.pending_fixed_value.push_str(&prefix);
                prefix.clear();
            }
            p.maybe_add_part_from_pending_fixed_value()?;
            let modifier_token = p.try_consume_modifier();
            p.add_part(
                &prefix,
                name_token,
                regexp_or_wildcard_token,
                "",
                modifier_token,
            )?;
            continue;
        }
        // Step 3.5-3.6: fixed text accumulates.
        let fixed_token = match char_token {
            Some(t) => Some(t),
            None => p.try_consume(TokenType::EscapedChar),
        };
        if let Some(fixed) = fixed_token {
            p.pending_fixed_value.push_str(&fixed.value);
            continue;
        }
        // Step 3.7: a `{…}` group.
        if p.try_consume(TokenType::Open).is_some() {
            let prefix = p.consume_text();
            let name_token = p.try_consume(TokenType::Name);
            let regexp_or_wildcard_token = p.try_consume_regexp_or_wildcard(name_token.is_some());
            let suffix = p.consume_text();
            p.consume_required(TokenType::Close)?;
            let modifier_token = p.try_consume_modifier();
            p.add_part(
                &prefix,
                name_token,
                regexp_or_wildcard_token,
                &suffix,
                modifier_token,
            )?;
            continue;
        }
        // Steps 3.8-3.9: anything else must be the end.
        p.maybe_add_part_from_pending_fixed_value()?;
        p.consume_required(TokenType::End)?;
    }
    Ok(p.part_list)
}

impl PatternParser<'_> {
    /// URL Pattern Standard: try to consume a token.
    fn try_consume(&mut self, kind: TokenType) -> Option<Token> {
        let next = &self.token_list[self.index];
        if next.kind != kind {
            return None;
        }
        self.index += 1;
        Some(next.clone())
    }

    /// URL Pattern Standard: try to consume a modifier token.
    fn try_consume_modifier(&mut self) -> Option<Token> {
        self.try_consume(TokenType::OtherModifier)
            .or_else(|| self.try_consume(TokenType::Asterisk))
    }

    /// URL Pattern Standard: try to consume a regexp or wildcard token (a `*` after a name is
    /// a modifier, not a wildcard).
    fn try_consume_regexp_or_wildcard(&mut self, after_name: bool) -> Option<Token> {
        let token = self.try_consume(TokenType::Regexp);
        if token.is_none() && !after_name {
            return self.try_consume(TokenType::Asterisk);
        }
        token
    }

    /// URL Pattern Standard: consume a required token.
    fn consume_required(&mut self, kind: TokenType) -> Result<Token, Error> {
        self.try_consume(kind).ok_or_else(|| {
            let found = &self.token_list[self.index];
            Error::RequiredToken {
                expected: kind,
                found: found.kind,
                index: found.index,
            }
        })
    }

    /// URL Pattern Standard: consume text.
    fn consume_text(&mut self) -> String {
        let mut result = String::new();
        while let Some(token) = self
            .try_consume(TokenType::Char)
            .or_else(|| self.try_consume(TokenType::EscapedChar))
        {
            result.push_str(&token.value);
        }
        result
    }

    /// URL Pattern Standard: maybe add a part from the pending fixed value.
    fn maybe_add_part_from_pending_fixed_value(&mut self) -> Result<(), Error> {
        if self.pending_fixed_value.is_empty() {
            return Ok(());
        }
        let pending = std::mem::take(&mut self.pending_fixed_value);
        let encoded = (self.encoding_callback)(&pending)?;
        self.part_list.push(Part {
            kind: PartType::FixedText,
            value: encoded,
            modifier: Modifier::None,
            name: String::new(),
            prefix: String::new(),
            suffix: String::new(),
        });
        Ok(())
    }

    /// URL Pattern Standard: add a part.
    fn add_part(
        &mut self,
        prefix: &str,
        name_token: Option<Token>,
        regexp_or_wildcard_token: Option<Token>,
        suffix: &str,
        modifier_token: Option<Token>,
    ) -> Result<(), Error> {
        // Step 1-2.
        let modifier = match modifier_token.as_ref().map(|t| t.value.as_str()) {
            Some("?") => Modifier::Optional,
            Some("*") => Modifier::ZeroOrMore,
            Some("+") => Modifier::OneOrMore,
            _ => Modifier::None,
        };
        // Step 3: `{text}` with no group and no modifier is plain fixed text.
        if name_token.is_none() && regexp_or_wildcard_token.is_none() && modifier == Modifier::None
        {
            self.pending_fixed_value.push_str(prefix);
            return Ok(());
        }
        // Step 4.
        self.maybe_add_part_from_pending_fixed_value()?;
        // Step 5: `{text}?` is fixed text with a modifier.
        if name_token.is_none() && regexp_or_wildcard_token.is_none() {
            debug_assert!(suffix.is_empty());
            if prefix.is_empty() {
                return Ok(());
            }
            let encoded = (self.encoding_callback)(prefix)?;
            self.part_list.push(Part {
                kind: PartType::FixedText,
                value: encoded,
                modifier,
                name: String::new(),
                prefix: String::new(),
                suffix: String::new(),
            });
            return Ok(());
        }
        // Steps 6-8: the group's regexp value, and its type when it is one of the wildcards.
        let mut regexp_value = match &regexp_or_wildcard_token {
            None => self.segment_wildcard_regexp.clone(),
            Some(t) if t.kind == TokenType::Asterisk => FULL_WILDCARD_REGEXP_VALUE.to_owned(),
            Some(t) => t.value.clone(),
        };
        let mut kind = PartType::Regexp;
        if regexp_value == self.segment_wildcard_regexp {
            kind = PartType::SegmentWildcard;
            regexp_value.clear();
        } else if regexp_value == FULL_WILDCARD_REGEXP_VALUE {
            kind = PartType::FullWildcard;
            regexp_value.clear();
        }
        // Steps 9-10: unnamed groups are numbered in order.
        let name = match (&name_token, &regexp_or_wildcard_token) {
            (Some(n), _) => n.value.clone(),
            (None, Some(_)) => {
                let name = self.next_numeric_name.to_string();
                self.next_numeric_name += 1;
                name
            }
            (None, None) => unreachable!("handled at step 5"),
        };
        // Step 11.
        if self.names.contains(&name) {
            return Err(Error::DuplicateName(name));
        }
        // Steps 12-14.
        let encoded_prefix = (self.encoding_callback)(prefix)?;
        let encoded_suffix = (self.encoding_callback)(suffix)?;
        self.names.insert(name.clone());
        self.part_list.push(Part {
            kind,
            value: regexp_value,
            modifier,
            name,
            prefix: encoded_prefix,
            suffix: encoded_suffix,
        });
        Ok(())
    }
}

/// URL Pattern Standard: generate a segment wildcard regexp.
pub fn generate_segment_wildcard_regexp(options: &Options) -> String {
    let mut result = String::from("[^");
    if let Some(d) = options.delimiter_code_point {
        escape_regexp_string_into(&d.to_string(), &mut result);
    }
    result.push_str("]+?");
    result
}

/// URL Pattern Standard: escape a regexp string.
pub fn escape_regexp_string(input: &str) -> String {
    let mut out = String::with_capacity(input.len());
    escape_regexp_string_into(input, &mut out);
    out
}

fn escape_regexp_string_into(input: &str, out: &mut String) {
    for c in input.chars() {
        if matches!(
            c,
            '.' | '+'
                | '*'
                | '?'
                | '^'
                | '$'
                | '{'
                | '}'
                | '('
                | ')'
                | '['
                | ']'
                | '|'
                | '/'
                | '\\'
        ) {
            out.push('\\');
        }
        out.push(c);
    }
}

/// URL Pattern Standard: escape a pattern string.
pub fn escape_pattern_string(input: &str) -> String {
    let mut out = String::with_capacity(input.len());
    for c in input.chars() {
        if matches!(c, '+' | '*' | '?' | ':' | '{' | '}' | '(' | ')' | '\\') {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// URL Pattern Standard: generate a regular expression and name list.
pub fn generate_regular_expression_and_name_list(
    part_list: &[Part],
    options: &Options,
) -> (String, Vec<String>) {
    let mut result = String::from("^");
    let mut name_list = Vec::new();
    for part in part_list {
        let modifier = part.modifier.as_str();
        // Step 3.1.
        if part.kind == PartType::FixedText {
            if part.modifier == Modifier::None {
                result.push_str(&escape_regexp_string(&part.value));
            } else {
                result.push_str("(?:");
                result.push_str(&escape_regexp_string(&part.value));
                result.push(')');
                result.push_str(modifier);
            }
            continue;
        }
        // Steps 3.2-3.5.
        name_list.push(part.name.clone());
        let regexp_value = match part.kind {
            PartType::SegmentWildcard => generate_segment_wildcard_regexp(options),
            PartType::FullWildcard => FULL_WILDCARD_REGEXP_VALUE.to_owned(),
            _ => part.value.clone(),
        };
        let single = matches!(part.modifier, Modifier::None | Modifier::Optional);
        // Step 3.6: no prefix or suffix.
        if part.prefix.is_empty() && part.suffix.is_empty() {
            if single {
                result.push_str(&format!("({regexp_value}){modifier}"));
            } else {
                result.push_str(&format!("((?:{regexp_value}){modifier})"));
            }
            continue;
        }
        let prefix = escape_regexp_string(&part.prefix);
        let suffix = escape_regexp_string(&part.suffix);
        // Step 3.7.
        if single {
            result.push_str(&format!("(?:{prefix}({regexp_value}){suffix}){modifier}"));
            continue;
        }
        // Steps 3.8-3.15: a repeated group captures all its repetitions, with the suffix and
        // prefix between them.
        result.push_str(&format!(
            "(?:{prefix}((?:{regexp_value})(?:{suffix}{prefix}(?:{regexp_value}))*){suffix})"
        ));
        if part.modifier == Modifier::ZeroOrMore {
            result.push('?');
        }
    }
    result.push('$');
    (result, name_list)
}

/// URL Pattern Standard: generate a pattern string (the normalized pattern a component shows).
pub fn generate_pattern_string(part_list: &[Part], options: &Options) -> String {
    let mut result = String::new();
    for (index, part) in part_list.iter().enumerate() {
        let previous_part = index.checked_sub(1).map(|i| &part_list[i]);
        let next_part = part_list.get(index + 1);
        // Step 4.4.
        if part.kind == PartType::FixedText {
            if part.modifier == Modifier::None {
                result.push_str(&escape_pattern_string(&part.value));
            } else {
                result.push('{');
                result.push_str(&escape_pattern_string(&part.value));
                result.push('}');
                result.push_str(part.modifier.as_str());
            }
            continue;
        }
        // Step 4.5.
        let custom_name = !part.name.starts_with(|c: char| c.is_ascii_digit());
        // Step 4.6.
        let mut needs_grouping = !part.suffix.is_empty()
            || (!part.prefix.is_empty() && !options.is_prefix(&part.prefix));
        // Step 4.7: `:a` followed by text that would continue the name, or by an unnamed
        // group, needs braces to stay apart.
        if !needs_grouping
            && custom_name
            && part.kind == PartType::SegmentWildcard
            && part.modifier == Modifier::None
        {
            if let Some(next) = next_part.filter(|n| n.prefix.is_empty() && n.suffix.is_empty()) {
                if next.kind == PartType::FixedText {
                    needs_grouping = next
                        .value
                        .chars()
                        .next()
                        .is_some_and(|c| is_valid_name_code_point(c, false));
                } else {
                    needs_grouping = next.name.starts_with(|c: char| c.is_ascii_digit());
                }
            }
        }
        // Step 4.8: a group after fixed text ending in the prefix code point would take it
        // as its prefix when reparsed.
        if !needs_grouping && part.prefix.is_empty() {
            if let Some(previous) = previous_part {
                if previous.kind == PartType::FixedText
                    && options.prefix_code_point.is_some()
                    && previous.value.chars().last() == options.prefix_code_point
                {
                    needs_grouping = true;
                }
            }
        }
        // Steps 4.9-4.19.
        if needs_grouping {
            result.push('{');
        }
        result.push_str(&escape_pattern_string(&part.prefix));
        if custom_name {
            result.push(':');
            result.push_str(&part.name);
        }
        match part.kind {
            PartType::Regexp => {
                result.push('(');
                result.push_str(&part.value);
                result.push(')');
            }
            PartType::SegmentWildcard if !custom_name => {
                result.push('(');
                result.push_str(&generate_segment_wildcard_regexp(options));
                result.push(')');
            }
            PartType::FullWildcard => {
                if !custom_name
                    && (previous_part.is_none_or(|p| {
                        p.kind == PartType::FixedText || p.modifier != Modifier::None
                    }) || needs_grouping
                        || !part.prefix.is_empty())
                {
                    result.push('*');
                } else {
                    result.push('(');
                    result.push_str(FULL_WILDCARD_REGEXP_VALUE);
                    result.push(')');
                }
            }
            _ => {}
        }
        if part.kind == PartType::SegmentWildcard
            && custom_name
            && part
                .suffix
                .chars()
                .next()
                .is_some_and(|c| is_valid_name_code_point(c, false))
        {
            result.push('\\');
        }
        result.push_str(&escape_pattern_string(&part.suffix));
        if needs_grouping {
            result.push('}');
        }
        result.push_str(part.modifier.as_str());
    }
    result
}
