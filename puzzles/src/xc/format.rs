//! The input format of Knuth's exact-cover solvers DLX1 and DLX2 (TAOCP
//! 7.2.2.1): comment lines start with `|`; the first other line names the
//! primary items, then, after a `|`, the secondary ones; every later line is
//! an option, the names of the items it covers, a secondary one possibly
//! coloured (`name:c`).

use hysolve::advanced::input::{InputError, words};

/// The longest item name the format allows.
pub const MAX_NAME: usize = 8;

/// A parsed exact-cover instance.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Instance {
    /// Item names: the primary items first.
    pub items: Vec<String>,
    /// How many of `items` are primary.
    pub primary: usize,
    /// The options, in file order (options with no primary item dropped).
    pub options: Vec<Opt>,
    /// Colour names: colour `k` (from 1) is `colours[k - 1]`.
    pub colours: Vec<char>,
    /// One line per option dropped for having no primary item.
    pub warnings: Vec<String>,
}

/// One option: the items it covers (indices into [`Instance::items`]) with
/// their colours (0: none), in the order written, and its line as written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Opt {
    /// Its items, each with its colour (0: none).
    pub items: Vec<(u32, u32)>,
    /// Its line in the file.
    pub line: usize,
    /// Its text, as the file has it.
    pub text: String,
}

impl Instance {
    /// Parses `text`, the contents of `file` (which only names errors).
    pub fn parse(file: &str, text: &str) -> Result<Instance, InputError> {
        let mut lines = text
            .lines()
            .enumerate()
            .map(|(i, l)| (i + 1, l))
            .filter(|(_, l)| !l.starts_with('|') && !l.trim().is_empty());
        let Some((at, head)) = lines.next() else {
            return Err(InputError::file(
                file,
                if text.trim().is_empty() {
                    "empty file: expected a line naming the items"
                } else {
                    "no items line: the file holds only comments"
                },
            ));
        };
        let mut items: Vec<String> = Vec::new();
        let mut primary = None;
        let mut index = std::collections::HashMap::new();
        for (col, word) in words(head) {
            if word == "|" {
                if primary.is_some() {
                    return Err(InputError::at(
                        file,
                        at,
                        col,
                        "a second '|' in the items line",
                    ));
                }
                primary = Some(items.len());
                continue;
            }
            check_name(file, at, col, word)?;
            if index.insert(word.to_owned(), items.len() as u32).is_some() {
                return Err(InputError::at(
                    file,
                    at,
                    col,
                    format!("item '{word}' is named twice"),
                ));
            }
            items.push(word.to_owned());
        }
        let primary = primary.unwrap_or(items.len());
        if primary == 0 {
            return Err(InputError::line(file, at, "no primary item"));
        }
        let mut colours: Vec<char> = Vec::new();
        let mut options = Vec::new();
        let mut warnings = Vec::new();
        let mut seen = vec![usize::MAX; items.len()];
        for (line, l) in lines {
            let mut opt = Opt {
                items: Vec::new(),
                line,
                text: l.split_whitespace().collect::<Vec<_>>().join(" "),
            };
            for (col, word) in words(l) {
                let (name, colour) = match word.split_once(':') {
                    Some((name, c)) => (name, Some(c)),
                    None => (word, None),
                };
                check_name(file, line, col, name)?;
                let Some(&item) = index.get(name) else {
                    return Err(InputError::at(
                        file,
                        line,
                        col,
                        format!("unknown item '{name}'"),
                    ));
                };
                if seen[item as usize] == line {
                    return Err(InputError::at(
                        file,
                        line,
                        col,
                        format!("item '{name}' twice in one option"),
                    ));
                }
                seen[item as usize] = line;
                let colour = match colour {
                    None => 0,
                    Some(_) if (item as usize) < primary => {
                        return Err(InputError::at(
                            file,
                            line,
                            col,
                            format!("primary item '{name}' cannot have a colour"),
                        ));
                    }
                    Some(c) => {
                        let mut chars = c.chars();
                        let (Some(ch), None) = (chars.next(), chars.next()) else {
                            return Err(InputError::at(
                                file,
                                line,
                                col + name.chars().count() + 1,
                                format!("a colour is one character, got '{c}'"),
                            ));
                        };
                        if ch == ':' || ch == '|' {
                            return Err(InputError::at(
                                file,
                                line,
                                col + name.chars().count() + 1,
                                format!("'{ch}' cannot be a colour"),
                            ));
                        }
                        match colours.iter().position(|&k| k == ch) {
                            Some(k) => k as u32 + 1,
                            None => {
                                colours.push(ch);
                                colours.len() as u32
                            }
                        }
                    }
                };
                opt.items.push((item, colour));
            }
            if opt.items.iter().all(|&(i, _)| i as usize >= primary) {
                warnings.push(format!(
                    "{file}:{line}: option with no primary item dropped"
                ));
                continue;
            }
            options.push(opt);
        }
        Ok(Instance {
            items,
            primary,
            options,
            colours,
            warnings,
        })
    }
}

/// An item name: 1 to [`MAX_NAME`] printable characters, no `:` or `|`.
fn check_name(file: &str, line: usize, col: usize, name: &str) -> Result<(), InputError> {
    if name.is_empty() {
        return Err(InputError::at(file, line, col, "an empty item name"));
    }
    if let Some((k, c)) = name
        .chars()
        .enumerate()
        .find(|&(_, c)| c == ':' || c == '|' || c.is_control())
    {
        return Err(InputError::at(
            file,
            line,
            col + k,
            format!("item name '{name}' contains {c:?}"),
        ));
    }
    let len = name.chars().count();
    if len > MAX_NAME {
        return Err(InputError::at(
            file,
            line,
            col,
            format!("item name '{name}' is {len} characters long, more than {MAX_NAME}"),
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn err(text: &str) -> String {
        Instance::parse("f.xc", text).unwrap_err().to_string()
    }

    #[test]
    fn parses_items_options_and_colours() {
        let x = Instance::parse(
            "f.xc",
            "| a comment\na b c | x y\na x:0\nb c y\n| another\nc x:1 y\na b x:0\n",
        )
        .unwrap();
        assert_eq!(x.items, ["a", "b", "c", "x", "y"]);
        assert_eq!(x.primary, 3);
        assert_eq!(x.colours, ['0', '1']);
        assert_eq!(x.options.len(), 4);
        assert_eq!(x.options[0].items, [(0, 0), (3, 1)]);
        assert_eq!(x.options[2].items, [(2, 0), (3, 2), (4, 0)]);
        assert_eq!(x.options[2].line, 6);
        assert_eq!(x.options[3].text, "a b x:0");
    }

    #[test]
    fn drops_options_without_primary_items() {
        let x = Instance::parse("f.xc", "a | x\nx\na\n").unwrap();
        assert_eq!(x.options.len(), 1);
        assert_eq!(x.warnings, ["f.xc:2: option with no primary item dropped"]);
    }

    #[test]
    fn bad_inputs_are_located() {
        assert_eq!(
            err(""),
            "f.xc: empty file: expected a line naming the items"
        );
        assert_eq!(
            err("| only\n"),
            "f.xc: no items line: the file holds only comments"
        );
        assert_eq!(err("a b\na q\n"), "f.xc:2:3: unknown item 'q'");
        assert_eq!(
            err("a b\nb a b\n"),
            "f.xc:2:5: item 'b' twice in one option"
        );
        assert_eq!(
            err("a | x\na:1\n"),
            "f.xc:2:1: primary item 'a' cannot have a colour"
        );
        assert_eq!(
            err("a | x\na x:12\n"),
            "f.xc:2:5: a colour is one character, got '12'"
        );
        assert_eq!(
            err("a | x\na x:\n"),
            "f.xc:2:5: a colour is one character, got ''"
        );
        assert_eq!(
            err("abcdefghi\n"),
            "f.xc:1:1: item name 'abcdefghi' is 9 characters long, more than 8"
        );
        assert_eq!(err("a a\n"), "f.xc:1:3: item 'a' is named twice");
        assert_eq!(err(" | x\n"), "f.xc:1: no primary item");
        assert_eq!(
            err("a | b | c\n"),
            "f.xc:1:7: a second '|' in the items line"
        );
        assert_eq!(err("a b|c\n"), "f.xc:1:4: item name 'b|c' contains '|'");
    }
}
