//! The self-contained page: every solution of the range as inline SVG, one
//! shown at a time, with previous / next (buttons and arrow keys), a jump to
//! a solution number, a legend and a count. No network: no external script,
//! style sheet, font or image; the page works from a file.

use super::Solutions;
use super::svg::{Style, draw, escape};
use crate::text::thousands;
use std::fmt::Write;

const CSS: &str = "
body { font-family: sans-serif; margin: 1.5em; color: #222; background: #fff; }
h1 { font-size: 1.3em; margin: 0 0 0.3em; }
#range { color: #555; margin: 0 0 1em; }
nav { display: flex; gap: 0.5em; align-items: center; flex-wrap: wrap; margin-bottom: 1em; }
nav button { font-size: 1em; padding: 0.3em 0.9em; }
nav input { width: 8em; font-size: 1em; }
#position { min-width: 16em; font-weight: bold; }
#message { color: #b00; }
#legend { display: flex; flex-wrap: wrap; gap: 0.4em 1em; margin-bottom: 1em; }
#legend span { display: inline-flex; align-items: center; gap: 0.3em; }
#legend i { display: inline-block; width: 1.1em; height: 1.1em; border: 1px solid #333; }
figure.solution { margin: 0; }
figure.solution figcaption { margin-bottom: 0.4em; color: #555; }
";

const SCRIPT: &str = "
(function () {
  var figures = Array.prototype.slice.call(document.querySelectorAll('figure.solution'));
  var first = Number(document.body.dataset.from);
  var current = 0;
  var position = document.getElementById('position');
  var message = document.getElementById('message');
  var prev = document.getElementById('prev');
  var next = document.getElementById('next');
  var jump = document.getElementById('jump');
  function show(i) {
    if (i < 0 || i >= figures.length) { return; }
    figures[current].hidden = true;
    figures[i].hidden = false;
    current = i;
    document.body.dataset.shown = figures[i].dataset.number;
    position.textContent = 'Solution ' + figures[i].dataset.number +
      ' (' + (i + 1) + ' of ' + figures.length + ' on this page)';
    prev.disabled = i === 0;
    next.disabled = i === figures.length - 1;
    message.textContent = '';
    try { history.replaceState(null, '', '#' + figures[i].dataset.number); } catch (e) {}
  }
  function go(number) {
    var i = number - first;
    if (!(i >= 0 && i < figures.length)) {
      message.textContent = 'Solution ' + number + ' is not on this page, which holds ' +
        first + ' to ' + (first + figures.length - 1) + ': make a page that starts there with hysolve view --from ' + number + '.';
      return;
    }
    show(i);
  }
  prev.addEventListener('click', function () { show(current - 1); });
  next.addEventListener('click', function () { show(current + 1); });
  document.getElementById('jump-form').addEventListener('submit', function (e) {
    e.preventDefault();
    go(Number(jump.value));
  });
  document.addEventListener('keydown', function (e) {
    if (e.target === jump) { return; }
    if (e.key === 'ArrowRight') { show(current + 1); }
    if (e.key === 'ArrowLeft') { show(current - 1); }
  });
  var wanted = Number(location.hash.slice(1));
  if (wanted >= first && wanted < first + figures.length) { show(wanted - first); } else { show(0); }
})();
";

/// The page for `solutions`, read from the file named `source`.
pub fn page(source: &str, solutions: &Solutions, style: &Style) -> String {
    let n = solutions.pictures.len();
    let from = solutions.from;
    let last = from + n - 1;
    let format = solutions.format;
    let mut s = String::with_capacity(4096 + n * 4096);
    let name = format.title;
    let title = format!(
        "{}{} solutions: {source}",
        name[..1].to_uppercase(),
        &name[1..]
    );
    let _ = write!(
        s,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <title>{}</title>\n<style>{CSS}</style>\n</head>\n\
         <body data-from=\"{from}\" data-count=\"{n}\" data-total=\"{}\" data-kind=\"{}\">\n\
         <h1>{}</h1>\n",
        escape(&title),
        solutions.total,
        format.tag(),
        escape(&title)
    );
    let held = if solutions.total == 1 {
        "This page holds the file's only solution.".to_string()
    } else if n == solutions.total {
        format!(
            "This page holds all {} solutions of the file.",
            thousands(n as u64)
        )
    } else {
        format!(
            "This page holds solutions {} to {} of the {} in the file; \
             <code>hysolve view --from N --count M</code> makes a page of others.",
            thousands(from as u64),
            thousands(last as u64),
            thousands(solutions.total as u64)
        )
    };
    let _ = writeln!(s, "<p id=\"range\">{held}</p>");
    let _ = writeln!(
        s,
        "<nav><button id=\"prev\" type=\"button\">&larr; Previous</button>\
         <span id=\"position\">Solution {from}</span>\
         <button id=\"next\" type=\"button\">Next &rarr;</button>\
         <form id=\"jump-form\"><label>Go to solution <input id=\"jump\" type=\"number\" min=\"1\" value=\"{from}\"></label> \
         <button id=\"go\" type=\"submit\">Go</button></form>\
         <span id=\"message\" role=\"status\"></span></nav>"
    );
    s.push_str("<div id=\"legend\">");
    for (swatch, meaning) in format.legend {
        let _ = write!(s, "<span><i style=\"{swatch}\"></i>{meaning}</span>");
    }
    for (label, colour) in &style.colours {
        let _ = write!(
            s,
            "<span data-legend=\"{0}\"><i style=\"background:{colour}\"></i>{0}</span>",
            escape(&label.to_string())
        );
    }
    s.push_str("</div>\n<main>\n");
    for (i, picture) in solutions.pictures.iter().enumerate() {
        let number = from + i;
        let (rows, cols) = picture.size();
        let mut caption = format!("Solution {number}: {rows} x {cols}");
        if picture.depth() > 1 {
            let _ = write!(caption, " x {} (layers side by side)", picture.depth());
        }
        caption.push_str(&picture.caption);
        let _ = writeln!(
            s,
            "<figure class=\"solution\" id=\"solution-{number}\" data-number=\"{number}\"{}>\
             <figcaption>{caption}</figcaption>{}</figure>",
            if i == 0 { "" } else { " hidden" },
            draw(picture, style, false)
        );
    }
    let _ = write!(s, "</main>\n<script>{SCRIPT}</script>\n</body>\n</html>\n");
    s
}
