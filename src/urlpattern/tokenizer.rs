//! URL Pattern Standard: 2.1.2 Tokenizing (<https://urlpattern.spec.whatwg.org/#tokenizing>).

use icu_properties::props::{IdContinue, IdStart};
use icu_properties::CodePointSetData;
use std::fmt;

use super::{Error, TokenizingCause};

/// A token's type, named as the standard names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TokenType {
    /// A U+007B (`{`).
    Open,
    /// A U+007D (`}`).
    Close,
    /// `(<regular expression>)`, ASCII only.
    Regexp,
    /// `:<name>`.
    Name,
    /// A code point without a special meaning.
    Char,
    /// `\<char>`.
    EscapedChar,
    /// `?` or `+`.
    OtherModifier,
    /// `*`: a full wildcard, or a modifier.
    Asterisk,
    /// The end of the pattern string.
    End,
    /// A code point the lenient policy kept where the strict one throws.
    InvalidChar,
}

impl TokenType {
    /// The type's name in the standard, e.g. `"escaped-char"`.
    pub const fn name(self) -> &'static str {
        match self {
            TokenType::Open => "open",
            TokenType::Close => "close",
            TokenType::Regexp => "regexp",
            TokenType::Name => "name",
            TokenType::Char => "char",
            TokenType::EscapedChar => "escaped-char",
            TokenType::OtherModifier => "other-modifier",
            TokenType::Asterisk => "asterisk",
            TokenType::End => "end",
            TokenType::InvalidChar => "invalid-char",
        }
    }
}

impl fmt::Display for TokenType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A token: its type, its index (in code points) in the pattern string and its value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Token {
    pub kind: TokenType,
    pub index: usize,
    pub value: String,
}

/// A tokenize policy: `strict` throws on a tokenizing error, `lenient` keeps an
/// `invalid-char` token (the constructor string parser tokenizes leniently).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Policy {
    Strict,
    Lenient,
}

/// The tokenizer struct: `index` is where the current token starts, `next_index` the code point
/// after `code_point`.
struct Tokenizer<'a> {
    input: &'a [char],
    policy: Policy,
    token_list: Vec<Token>,
    index: usize,
    next_index: usize,
    code_point: char,
}

/// URL Pattern Standard: tokenize.
pub fn tokenize(input: &str, policy: Policy) -> Result<Vec<Token>, Error> {
    let chars: Vec<char> = input.chars().collect();
    let mut t = Tokenizer {
        input: &chars,
        policy,
        token_list: Vec::new(),
        index: 0,
        next_index: 0,
        code_point: '\0',
    };
    let len = chars.len();
    // Step 4.
    while t.index < len {
        // Step 4.1.
        t.seek_and_get_next_code_point(t.index);
        match t.code_point {
            // Step 4.2.
            '*' => t.add_token_with_default_position_and_length(TokenType::Asterisk),
            // Step 4.3.
            '+' | '?' => t.add_token_with_default_position_and_length(TokenType::OtherModifier),
            // Step 4.4: an escape needs a code point after it.
            '\\' => {
                if t.index == len - 1 {
                    t.process_tokenizing_error(
                        t.next_index,
                        t.index,
                        TokenizingCause::EscapeAtEnd,
                    )?;
                    continue;
                }
                let escaped_index = t.next_index;
                t.get_next_code_point();
                t.add_token_with_default_length(
                    TokenType::EscapedChar,
                    t.next_index,
                    escaped_index,
                );
            }
            // Steps 4.5 and 4.6.
            '{' => t.add_token_with_default_position_and_length(TokenType::Open),
            '}' => t.add_token_with_default_position_and_length(TokenType::Close),
            // Step 4.7: a name runs while code points are valid name code points.
            ':' => {
                let mut name_position = t.next_index;
                let name_start = name_position;
                while name_position < len {
                    t.seek_and_get_next_code_point(name_position);
                    let first = name_position == name_start;
                    if !is_valid_name_code_point(t.code_point, first) {
                        break;
                    }
                    name_position = t.next_index;
                }
                if name_position <= name_start {
                    t.process_tokenizing_error(name_start, t.index, TokenizingCause::EmptyName)?;
                    continue;
                }
                t.add_token_with_default_length(TokenType::Name, name_position, name_start);
            }
            // Step 4.8: a regexp group, balanced, ASCII only, whose inner groups are all
            // non-capturing or assertions ("(?").
            '(' => {
                let mut depth = 1;
                let mut regexp_position = t.next_index;
                let regexp_start = regexp_position;
                let mut error = false;
                while regexp_position < len {
                    t.seek_and_get_next_code_point(regexp_position);
                    if !t.code_point.is_ascii() {
                        t.process_tokenizing_error(
                            regexp_start,
                            t.index,
                            TokenizingCause::RegexpNotAscii,
                        )?;
                        error = true;
                        break;
                    }
                    if regexp_position == regexp_start && t.code_point == '?' {
                        t.process_tokenizing_error(
                            regexp_start,
                            t.index,
                            TokenizingCause::RegexpStartsWithQuestionMark,
                        )?;
                        error = true;
                        break;
                    }
                    if t.code_point == '\\' {
                        if regexp_position == len - 1 {
                            t.process_tokenizing_error(
                                regexp_start,
                                t.index,
                                TokenizingCause::RegexpEscapeAtEnd,
                            )?;
                            error = true;
                            break;
                        }
                        t.get_next_code_point();
                        if !t.code_point.is_ascii() {
                            t.process_tokenizing_error(
                                regexp_start,
                                t.index,
                                TokenizingCause::RegexpNotAscii,
                            )?;
                            error = true;
                            break;
                        }
                        regexp_position = t.next_index;
                        continue;
                    }
                    if t.code_point == ')' {
                        depth -= 1;
                        if depth == 0 {
                            regexp_position = t.next_index;
                            break;
                        }
                    } else if t.code_point == '(' {
                        depth += 1;
                        if regexp_position == len - 1 {
                            t.process_tokenizing_error(
                                regexp_start,
                                t.index,
                                TokenizingCause::RegexpUnbalanced,
                            )?;
                            error = true;
                            break;
                        }
                        let temporary_position = t.next_index;
                        t.get_next_code_point();
                        if t.code_point != '?' {
                            t.process_tokenizing_error(
                                regexp_start,
                                t.index,
                                TokenizingCause::RegexpCapturingGroup,
                            )?;
                            error = true;
                            break;
                        }
                        t.next_index = temporary_position;
                    }
                    regexp_position = t.next_index;
                }
                if error {
                    continue;
                }
                if depth != 0 {
                    t.process_tokenizing_error(
                        regexp_start,
                        t.index,
                        TokenizingCause::RegexpUnbalanced,
                    )?;
                    continue;
                }
                let regexp_length = regexp_position - regexp_start - 1;
                if regexp_length == 0 {
                    t.process_tokenizing_error(
                        regexp_start,
                        t.index,
                        TokenizingCause::RegexpEmpty,
                    )?;
                    continue;
                }
                t.add_token(
                    TokenType::Regexp,
                    regexp_position,
                    regexp_start,
                    regexp_length,
                );
            }
            // Step 4.9.
            _ => t.add_token_with_default_position_and_length(TokenType::Char),
        }
    }
    // Step 5.
    t.add_token_with_default_length(TokenType::End, t.index, t.index);
    Ok(t.token_list)
}

impl Tokenizer<'_> {
    fn get_next_code_point(&mut self) {
        self.code_point = self.input[self.next_index];
        self.next_index += 1;
    }

    fn seek_and_get_next_code_point(&mut self, index: usize) {
        self.next_index = index;
        self.get_next_code_point();
    }

    fn add_token(
        &mut self,
        kind: TokenType,
        next_position: usize,
        value_position: usize,
        value_length: usize,
    ) {
        let value = self.input[value_position..value_position + value_length]
            .iter()
            .collect();
        self.token_list.push(Token {
            kind,
            index: self.index,
            value,
        });
        self.index = next_position;
    }

    fn add_token_with_default_length(
        &mut self,
        kind: TokenType,
        next_position: usize,
        value_position: usize,
    ) {
        self.add_token(
            kind,
            next_position,
            value_position,
            next_position - value_position,
        );
    }

    fn add_token_with_default_position_and_length(&mut self, kind: TokenType) {
        self.add_token_with_default_length(kind, self.next_index, self.index);
    }

    /// URL Pattern Standard: process a tokenizing error.
    fn process_tokenizing_error(
        &mut self,
        next_position: usize,
        value_position: usize,
        cause: TokenizingCause,
    ) -> Result<(), Error> {
        if self.policy == Policy::Strict {
            let rest: String = self.input[value_position..].iter().collect();
            return Err(Error::Tokenizing {
                index: self.index,
                at: rest,
                cause,
                component: None,
                pattern_index: None,
            });
        }
        self.add_token_with_default_length(TokenType::InvalidChar, next_position, value_position);
        Ok(())
    }
}

/// URL Pattern Standard: is a valid name code point (ECMAScript's IdentifierStart and
/// IdentifierPart: ID_Start, ID_Continue, `$`, `_`, ZWNJ and ZWJ).
pub fn is_valid_name_code_point(c: char, first: bool) -> bool {
    if first {
        c == '$' || c == '_' || CodePointSetData::new::<IdStart>().contains(c)
    } else {
        c == '$'
            || c == '\u{200C}'
            || c == '\u{200D}'
            || CodePointSetData::new::<IdContinue>().contains(c)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(input: &str, policy: Policy) -> Vec<(TokenType, usize, String)> {
        tokenize(input, policy)
            .expect("tokenizes")
            .into_iter()
            .map(|t| (t.kind, t.index, t.value))
            .collect()
    }

    #[test]
    fn names_regexps_and_escapes_are_single_tokens() {
        use TokenType::*;
        assert_eq!(
            kinds("/:id(\\d+)\\*", Policy::Strict),
            vec![
                (Char, 0, "/".into()),
                (Name, 1, "id".into()),
                (Regexp, 4, "\\d+".into()),
                (EscapedChar, 9, "*".into()),
                (End, 11, String::new()),
            ]
        );
    }

    #[test]
    fn a_capturing_group_inside_a_regexp_is_an_error_only_when_strict() {
        assert!(matches!(
            tokenize("((a))", Policy::Strict),
            Err(Error::Tokenizing { index: 0, .. })
        ));
        let lenient = kinds("((a))", Policy::Lenient);
        assert_eq!(lenient[0], (TokenType::InvalidChar, 0, "(".into()));
    }

    #[test]
    fn names_follow_ecmascript_identifiers() {
        assert!(is_valid_name_code_point('é', true));
        assert!(is_valid_name_code_point('$', true));
        assert!(!is_valid_name_code_point('1', true));
        assert!(is_valid_name_code_point('1', false));
        assert!(is_valid_name_code_point('\u{200D}', false));
        assert!(!is_valid_name_code_point('-', false));
    }
}
