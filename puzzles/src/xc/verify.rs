//! An exact-cover solution checked against the instance, with nothing of
//! the search: each line must be one of the options as written, every
//! primary item covered once, every secondary item at most once or only in
//! one colour.

use super::format::Instance;
use std::collections::HashMap;

/// Checks `solution` (options one per line) against `instance`.
pub fn verify(instance: &Instance, solution: &str) -> Result<(), String> {
    let by_text: HashMap<&str, usize> = instance
        .options
        .iter()
        .enumerate()
        .map(|(k, o)| (o.text.as_str(), k))
        .collect();
    let mut uses = vec![0u32; instance.items.len()];
    let mut colour = vec![None; instance.items.len()];
    for line in solution.lines() {
        let text = line.split_whitespace().collect::<Vec<_>>().join(" ");
        let k = *by_text
            .get(text.as_str())
            .ok_or_else(|| format!("'{text}' is not an option of the instance"))?;
        for &(item, c) in &instance.options[k].items {
            let name = &instance.items[item as usize];
            let i = item as usize;
            uses[i] += 1;
            if c == 0 {
                if uses[i] > 1 || colour[i].is_some() {
                    return Err(format!("item '{name}' is covered twice"));
                }
            } else {
                match colour[i] {
                    None if uses[i] > 1 => {
                        return Err(format!("item '{name}' is covered twice"));
                    }
                    Some(prev) if prev != c => {
                        return Err(format!("item '{name}' is given two colours"));
                    }
                    _ => colour[i] = Some(c),
                }
            }
        }
    }
    if let Some(i) = (0..instance.primary).find(|&i| uses[i] == 0) {
        return Err(format!(
            "primary item '{}' is not covered",
            instance.items[i]
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn checks_cover_and_colours() {
        let x = Instance::parse("t", "a b | x y\na x:1\nb x:1\nb x:2\na y\nb y\n").unwrap();
        assert_eq!(verify(&x, "a x:1\nb x:1"), Ok(()));
        assert_eq!(
            verify(&x, "a x:1\nb x:2").unwrap_err(),
            "item 'x' is given two colours"
        );
        assert_eq!(
            verify(&x, "a y\nb y").unwrap_err(),
            "item 'y' is covered twice"
        );
        assert_eq!(
            verify(&x, "a y").unwrap_err(),
            "primary item 'b' is not covered"
        );
        assert_eq!(verify(&x, "a  x:1\nb\tx:1"), Ok(()));
        assert!(verify(&x, "a b").is_err());
    }
}
