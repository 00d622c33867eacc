// The keyboard steps the replay: ← and → one step, Home and End the first and last (the page's own links).
"use strict";
document.addEventListener("keydown", (event) => {
  if (event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
  const target = event.target;
  if (target instanceof HTMLElement && (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName))) return;
  const rel = { ArrowLeft: "prev", ArrowRight: "next", Home: "first", End: "last" }[event.key];
  if (!rel) return;
  const link = document.querySelector(`a[data-key="${rel}"]`);
  if (link) {
    event.preventDefault();
    window.location.assign(link.href);
  }
});
