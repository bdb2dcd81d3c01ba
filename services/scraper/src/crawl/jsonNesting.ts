/** How deep arrays and objects nest in JSON text (brackets inside strings do not count); one linear pass. */
export function jsonNesting(text: string): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const char = text.charCodeAt(i);
    if (inString) {
      if (char === 0x5c) i++; // backslash: skip the escaped character
      else if (char === 0x22) inString = false;
    } else if (char === 0x22) inString = true;
    else if (char === 0x5b || char === 0x7b) deepest = Math.max(deepest, ++depth);
    else if (char === 0x5d || char === 0x7d) depth--;
  }
  return deepest;
}
