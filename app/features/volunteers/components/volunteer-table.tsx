import { useState } from "react";
import { Form, useNavigation } from "react-router";
import { ConfirmDialog } from "~/components/ui/confirm-dialog";
import { londonStamp } from "~/lib/london-time";
import type { VolunteerView } from "../volunteers.server";
import { TableScroll } from "~/components/ui/table-scroll";

/** The sign-ups on the staff page, each with Delete, asked about first. */
export function VolunteerTable({ volunteers }: { volunteers: VolunteerView[] }) {
  const [asking, setAsking] = useState<VolunteerView>();
  const navigation = useNavigation();
  const deleting = navigation.state !== "idle" && navigation.formData?.get("intent") === "delete";
  return (
    <>
      <TableScroll label="Table of volunteer sign-ups">
        <table className="admin-table">
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">E-mail</th>
              <th scope="col">Why they want to help</th>
              <th scope="col">Signed up</th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {volunteers.map((volunteer) => (
              <tr key={volunteer.id}>
                <th scope="row">{volunteer.name}</th>
                <td data-label="E-mail">{volunteer.email}</td>
                <td data-label="Why they want to help">{volunteer.reason}</td>
                <td data-label="Signed up">{londonStamp(volunteer.createdAt)}</td>
                <td data-label="Actions">
                  <button
                    type="button"
                    className="button button-secondary"
                    aria-label={`Delete the sign-up of ${volunteer.name}`}
                    disabled={deleting}
                    onClick={() => setAsking(volunteer)}
                  >
                    Delete
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableScroll>
      <Form method="post" id="delete-volunteer" hidden>
        <input type="hidden" name="intent" value="delete" />
        <input type="hidden" name="id" value={asking?.id ?? ""} />
      </Form>
      <ConfirmDialog
        open={Boolean(asking)}
        title="Delete this sign-up?"
        message={asking ? `${asking.name}'s sign-up will be deleted for good. This cannot be undone.` : ""}
        confirmLabel="Delete the sign-up"
        cancelLabel="Keep it"
        onConfirm={() => {
          (document.getElementById("delete-volunteer") as HTMLFormElement | null)?.requestSubmit();
          setAsking(undefined);
        }}
        onCancel={() => setAsking(undefined)}
      />
    </>
  );
}
