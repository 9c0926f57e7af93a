import { optimizeMarkdownText } from '../../src/filters/optimize-tokens-text';

/** The string pass: Markdown that does not come from the document model (.md files, the enhanced model's answer). */
describe('Token optimisation of Markdown text', () => {
  it('When two bold words stand side by side or bold paragraphs follow each other, then they are not merged as if empty bold', () => {
    expect(optimizeMarkdownText('**a** **b**\n\n**First**\n\n**Second**\n')).toBe(
      '**a** **b**\n\n**First**\n\n**Second**\n',
    );
  });

  it('When bold or a link is empty, then it is removed', () => {
    expect(optimizeMarkdownText('Start ** ** end [](https://x.test) done\n')).toBe('Start end done\n');
  });

  it('When a fenced code block repeats its lines and other blocks use the same fences, then no code line or fence is dropped', () => {
    const md = '```\nx\n```\n\nText\n\n```\nx\nx\nx\n```\n\n```\ny\n```\n';
    expect(optimizeMarkdownText(md)).toBe(md);
  });

  it('When a prose line repeats 3 times, then it is kept once', () => {
    expect(optimizeMarkdownText('Header\n\nOne\n\nHeader\n\nTwo\n\nHeader\n')).toBe('Header\n\nOne\n\nTwo\n');
  });
});
