import { writeFileSync } from 'node:fs';
import { makePdf } from './test/pdf/make-pdf';
const para = (mark: string, head: string) => `${mark} ${head}. Unless specifically excepted or unless listed in another schedule, any material, compound, mixture, or preparation which contains any quantity of the following substances, including its salts, isomers and salts of isomers, is subject to the rules of this part whenever the existence of such salts is possible.`;
(async () => {
  const pdf = await makePdf((doc) => {
    doc.font('Times-Bold').fontSize(11).text('§ 1308.12 Schedule II.', 54, 60, { width: 240 });
    doc.font('Times-Roman').fontSize(9.5);
    doc.text([para('(a)', 'Schedule II shall consist of the drugs listed in this section'), para('(b)', 'Substances, vegetable origin or chemical synthesis'), para('(c)', 'Opiates')].join('\n'), 54, 80, { width: 240, columns: 1, paragraphGap: 4 });
    doc.text([para('(d)', 'Stimulants'), para('(e)', 'Depressants'), para('(f)', 'Immediate precursors')].join('\n'), 316, 80, { width: 240, paragraphGap: 4 });
  });
  writeFileSync('/tmp/hgen/regulation-2col.pdf', pdf);
})();
