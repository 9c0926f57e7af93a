/**
 * A SmartArt diagram data part (dgm:dataModel) written by hand: a document point, content points
 * listed out of reading order, a connection point and a presentation point (neither is text a
 * reader shows), and parent-of connections whose srcOrd give the order: Plan, Build (with "Test the
 * parts" under it), Ship.
 */
export function smartArtData(): string {
  const D =
    'xmlns:dgm="http://schemas.openxmlformats.org/drawingml/2006/diagram" xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main"';
  const point = (id: string, text: string, type = '') =>
    `<dgm:pt modelId="${id}"${type ? ` type="${type}"` : ''}><dgm:prSet/><dgm:spPr/><dgm:t><a:bodyPr/><a:p>${
      text ? `<a:r><a:t>${text}</a:t></a:r>` : ''
    }</a:p></dgm:t></dgm:pt>`;
  const parOf = (id: string, src: string, dest: string, ord: number) =>
    `<dgm:cxn modelId="${id}" srcId="${src}" destId="${dest}" srcOrd="${ord}" destOrd="0"/>`;
  return (
    `<dgm:dataModel ${D}><dgm:ptLst>${point('{0}', '', 'doc')}${point('{3}', 'Ship')}${point('{1}', 'Plan')}` +
    `${point('{2}', 'Build')}${point('{21}', 'Test the parts')}${point('{T}', '', 'parTrans')}${point('{P}', 'ignored', 'pres')}</dgm:ptLst>` +
    `<dgm:cxnLst>${parOf('{c3}', '{0}', '{3}', 2)}${parOf('{c1}', '{0}', '{1}', 0)}${parOf('{c2}', '{0}', '{2}', 1)}` +
    `${parOf('{c21}', '{2}', '{21}', 0)}<dgm:cxn modelId="{p}" type="presOf" srcId="{1}" destId="{P}" srcOrd="0" destOrd="0"/></dgm:cxnLst></dgm:dataModel>`
  );
}

/** The DrawingML graphic that places a diagram: its relationship ids (data, layout, style, colours). */
export const SMARTART_GRAPHIC =
  '<a:graphic xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main"><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/diagram">' +
  '<dgm:relIds xmlns:dgm="http://schemas.openxmlformats.org/drawingml/2006/diagram" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships" r:dm="rIdDm" r:lo="rIdLo" r:qs="rIdQs" r:cs="rIdCs"/>' +
  '</a:graphicData></a:graphic>';

export const DIAGRAM_DATA_REL =
  '<Relationship Id="rIdDm" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/diagramData" Target="diagrams/data1.xml"/>';
