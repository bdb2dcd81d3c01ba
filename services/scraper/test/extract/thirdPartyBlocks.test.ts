import { describe, expect, it } from 'vitest';
import { extractFromHtml } from './extractFromHtml.ts';

describe("other organisations' contacts on legal pages", () => {
  it('leaves out a supervisory authority under its own heading', () => {
    const page = `
      <div id="main">
        <h1>Impressum</h1>
        <p>Steuerberatung Weber<br>Telefon: 089 1234567<br>E-Mail: <a href="mailto:info@weber-steuer.de">info@weber-steuer.de</a></p>
        <h2>Zuständige Kammer:</h2>
        <p>Steuerberaterkammer München<br>Telefon: 089 5511660<br>E-Mail: <a href="mailto:kammer@stbk-muc.de">kammer@stbk-muc.de</a></p>
        <h2>Haftungsausschluss</h2>
        <p>Fragen? Rufen Sie uns an: 089 7654321</p>
      </div>`;
    const found = extractFromHtml(page, 'DE');
    expect(found.emails).toEqual(['info@weber-steuer.de']);
    expect(found.phones.sort()).toEqual(['+49891234567', '+49897654321']);
  });

  it('leaves out a "Label:" block and the block after a label standing alone', () => {
    const page = `
      <p>Le Petit Four, 2 rue de la Paix, 75002 Paris<br>Tél : 01 42 68 53 00</p>
      <p>Hébergeur : OVH SAS, 2 rue Kellermann, 59100 Roubaix<br>Tél : 09 72 10 10 07</p>
      <p><strong>Conception du site :</strong></p>
      <p>Studio Web, contact@studioweb.example.net, 01 45 00 00 01</p>`;
    const found = extractFromHtml(page, 'FR');
    expect(found.phones).toEqual(['+33142685300']);
    expect(found.emails).toEqual([]);
  });

  it('ends a heading block where its section ends', () => {
    const page = `
      <section><h2>Webdesign</h2><p>We build shops.</p></section>
      <footer><p>Call 030 1234567 or write to hello@shopbuilders.de</p></footer>`;
    const found = extractFromHtml(page, 'DE');
    expect(found.emails).toEqual(['hello@shopbuilders.de']);
    expect(found.phones).toEqual(['+49301234567']);
  });

  it('ignores hidden elements such as spam traps', () => {
    const page = '<div style="display: none">trap@bakery-muller.de</div><p hidden>0171 1234567</p><p>info@bakery-muller.de</p>';
    const found = extractFromHtml(page, 'DE');
    expect(found.emails).toEqual(['info@bakery-muller.de']);
    expect(found.phones).toEqual([]);
  });
});
