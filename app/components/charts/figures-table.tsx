import { TableScroll } from "~/components/ui/table-scroll";
import type { FiguresTable } from "./chart";

/**
 * A chart's figures under it (decision 094): a table with a caption, the first column naming each
 * row, kept a table on a phone (scrolled sideways, the first column staying) rather than a card a
 * row; and its CSV file.
 */
export function FiguresTableView({
  table,
  caption,
  csvHref,
}: {
  table: FiguresTable;
  caption: string;
  csvHref?: string;
}) {
  const [first, ...rest] = table.header;
  return (
    <>
      <TableScroll label={caption}>
        <table className="chart-table">
          <caption>{caption}</caption>
          <thead>
            <tr>
              <th scope="col">{first}</th>
              {rest.map((heading) => (
                <th key={heading} scope="col" className="number">
                  {heading}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {table.rows.map((row, index) => (
              <tr key={index}>
                <th scope="row">{row[0]}</th>
                {row.slice(1).map((cell, column) => (
                  <td key={column} className="number">
                    {cell}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
          {table.foot ? (
            <tfoot>
              <tr>
                <th scope="row">{table.foot[0]}</th>
                {table.foot.slice(1).map((cell, column) => (
                  <td key={column} className="number">
                    {cell}
                  </td>
                ))}
              </tr>
            </tfoot>
          ) : null}
        </table>
      </TableScroll>
      {csvHref ? (
        <p className="chart-csv">
          <a href={csvHref} download>
            Download these figures (CSV)
          </a>
        </p>
      ) : null}
    </>
  );
}
