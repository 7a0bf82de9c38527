/*
 * Short messages in the corner (#toasts, a live region). They stack above the page's
 * bottom edge and leave by themselves; CSS keeps them clear of the replay bar.
 */
const SHOWN_MS = 3600;

export function toast(message, kind = "error") {
  const stack = document.getElementById("toasts");
  if (!stack || !message) return;
  const box = document.createElement("div");
  box.className = "toast " + kind;
  box.textContent = message;
  stack.appendChild(box);
  setTimeout(() => box.classList.add("leaving"), SHOWN_MS);
  setTimeout(() => box.remove(), SHOWN_MS + 400);
}
