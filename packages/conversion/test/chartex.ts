/** Office 2016 chart parts (chartEx), written as Excel writes them, for the readers' tests. */

export const CHARTEX_NS = 'http://schemas.microsoft.com/office/drawing/2014/chartex';
export const CHARTEX_REL = 'http://schemas.microsoft.com/office/2014/relationships/chartEx';

const pts = (values: string[]) => values.map((v, i) => `<cx:pt idx="${i}">${v}</cx:pt>`).join('');

/**
 * A chartEx part: categories as levels (innermost first, as Excel writes a treemap's), one data set
 * per series, each series of the given layout ("waterfall", "treemap", "funnel", …).
 */
export function chartExPart(spec: {
  title?: string;
  layout: string;
  levels: string[][];
  series: Array<{ name: string; values: string[] }>;
  pareto?: boolean;
}): string {
  const data = spec.series
    .map(
      (s, i) =>
        `<cx:data id="${i}"><cx:strDim type="cat"><cx:f>Sheet1!$A$2:$A$9</cx:f>` +
        spec.levels.map((level) => `<cx:lvl ptCount="${level.length}">${pts(level)}</cx:lvl>`).join('') +
        `</cx:strDim><cx:numDim type="${spec.layout === 'treemap' || spec.layout === 'sunburst' ? 'size' : 'val'}"><cx:f>Sheet1!$B$2:$B$9</cx:f>` +
        `<cx:lvl ptCount="${s.values.length}" formatCode="General">${pts(s.values)}</cx:lvl></cx:numDim></cx:data>`,
    )
    .join('');
  const title = spec.title
    ? `<cx:title pos="t" align="ctr" overlay="0"><cx:tx><cx:txData><cx:v>${spec.title}</cx:v></cx:txData></cx:tx>` +
      `<cx:txPr><a:bodyPr/><a:p><a:r><a:t>${spec.title}</a:t></a:r></a:p></cx:txPr></cx:title>`
    : '';
  const series = spec.series
    .map(
      (s, i) =>
        `<cx:series layoutId="${spec.layout}" uniqueId="{0000000${i}-0000-4000-8000-000000000000}"><cx:tx><cx:txData><cx:f>Sheet1!$B$1</cx:f><cx:v>${s.name}</cx:v></cx:txData></cx:tx><cx:dataId val="${i}"/></cx:series>` +
        (spec.pareto ? `<cx:series layoutId="paretoLine" ownerIdx="${i}"><cx:axisId val="2"/></cx:series>` : ''),
    )
    .join('');
  return (
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<cx:chartSpace xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" ` +
    `xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships" xmlns:cx="${CHARTEX_NS}">` +
    `<cx:chartData>${data}</cx:chartData><cx:chart>${title}<cx:plotArea><cx:plotAreaRegion>${series}</cx:plotAreaRegion>` +
    '<cx:axis id="0"><cx:catScaling gapWidth="0.5"/></cx:axis><cx:axis id="1"><cx:valScaling/></cx:axis></cx:plotArea></cx:chart></cx:chartSpace>'
  );
}

/** The graphic that places a chartEx part (inside mc:Choice Requires="cx1"), by relationship id. */
export const chartExGraphic = (relId: string) =>
  `<a:graphic xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main"><a:graphicData uri="${CHARTEX_NS}">` +
  `<cx:chart xmlns:cx="${CHARTEX_NS}" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships" r:id="${relId}"/></a:graphicData></a:graphic>`;
