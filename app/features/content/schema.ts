import { z } from "zod";
import { imageSchema } from "~/lib/image-schema";
import { siteSchema } from "~/lib/site";
import { videoSchema } from "~/lib/video-schema";

// Schemas for the charity's editable texts in content/<name>/content.json.
// They are browser-safe: pages import the inferred types, the server validates the files.

/** A required text: its message reads after its label ("Title must not be left empty"). */
const text = z.string().trim().min(1, "must not be left empty");

// Each field's label and help for the staff editor at /admin/pages (app/lib/editor-hints.ts).
/** A short text, one line in the editor. */
const line = (title: string, description?: string) => text.meta(description ? { title, description } : { title });
/** A longer text, a paragraph or more: several lines in the editor. */
const paragraph = (title: string, description?: string) =>
  text.meta({ title, ...(description ? { description } : {}), editor: { widget: "textarea" } });
/** A top-level field that starts a section of the editor (its other hints kept): the fields after it, until the next, are edited together. */
const startsSection = <T extends z.ZodType>(title: string, schema: T): T =>
  schema.meta({ editor: { ...schema.meta()?.editor, section: title } });
/** A picture with its own label; what a picture is comes from imageSchema. */
const picture = (title: string, description?: string) =>
  imageSchema.meta(description ? { title, description } : { title });

export const missionSchema = z
  .object({
    missionStatement: paragraph("Mission statement"),
    author: line("Whose words", "Their name and role, shown under the statement."),
  })
  .meta({ title: "Our mission" });
export type Mission = z.infer<typeof missionSchema>;

export const testimonialSchema = z
  .object({
    name: line("Name"),
    job: line("Who they are", "Their job or part in the project."),
    image: picture("Their photo"),
    testimonial: paragraph("What they said"),
  })
  .meta({ title: "Testimonial", description: "What someone helped by the project says about it." });
export type Testimonial = z.infer<typeof testimonialSchema>;

export const galleryImageSchema = z
  .object({
    image: picture("Picture"),
    description: line("Caption"),
  })
  .meta({ title: "Gallery picture" });
export type GalleryImage = z.infer<typeof galleryImageSchema>;

export const projectSchema = z
  .object({
    slug: z
      .string()
      .regex(/^[a-z0-9]+(-[a-z0-9]+)*$/, "must be lower-case words joined by hyphens")
      .meta({
        title: "Address",
        description: "Made from the title when the project is first published, and never changed after.",
        editor: { widget: "slug", prefix: "/project/" },
      }),
    title: line("Title"),
    imagePreview: picture("Picture in the project list"),
    imageBanner: picture("Banner picture", "Across the top of the project's own page."),
    info: paragraph("Summary", "A sentence or two, in the project list."),
    col1Text: paragraph("First column", "The project's page: its story, first half."),
    col2Text: paragraph("Second column", "The project's page: its story, second half."),
    comingSoon: z
      .boolean()
      .default(false)
      .meta({ title: "Coming soon", description: "Shows a Coming Soon label and a dimmed picture." }),
    testimonial: testimonialSchema.optional(),
    galleryImages: z.array(galleryImageSchema).default([]).meta({ title: "Gallery" }),
  })
  .meta({ title: "Project" });
export type Project = z.infer<typeof projectSchema>;

export const carouselSchema = z
  .object({
    images: z
      .array(picture("Picture"))
      .min(1, "must have at least one picture")
      .meta({ title: "Pictures", description: "Shown one after another, in this order." }),
    delay: z
      .number()
      .positive("must be more than 0 seconds")
      .default(10)
      .meta({ title: "Seconds per picture", description: "10 unless set." }),
  })
  .meta({ title: "Image wheel", description: "The pictures turning under the title of the home page." });
export type Carousel = z.infer<typeof carouselSchema>;

export const teamMemberSchema = z
  .object({
    name: line("Name"),
    position: line("Position"),
    quote: paragraph("Their words"),
    image: picture("Photo"),
  })
  .meta({ title: "Team member" });
export type TeamMember = z.infer<typeof teamMemberSchema>;

export const trusteeSchema = z
  .object({
    name: line("Name"),
    position: line("Position", "Their part on the board: Chair, Treasurer, Trustee."),
    job: line("Their work", "What they do outside the Trust."),
  })
  .meta({ title: "Trustee" });
export type Trustee = z.infer<typeof trusteeSchema>;

/** A page's header and its two columns of text, as most pages have them. */
const pageTitle = () => line("Page title", "The heading at the top of the page.");
const pageDescription = () => paragraph("Summary", "Under the heading, and what search engines and shared links show.");
const pageColumns = () => ({
  col1Text: paragraph("First column"),
  col2Text: paragraph("Second column"),
});

/** A video a page shows instead of the site's default one. */
const ownVideo = () =>
  videoSchema.optional().meta({ title: "Its own video", description: "Leave as none for the site's default video." });

export const homeSchema = z.object({
  title: startsSection("Top of the page", line("Title", "The large heading at the top of the home page.")),
  subtitle: paragraph("Subtitle"),
  quote: paragraph("Quote"),
  imageWheel: startsSection("Image wheel", carouselSchema),
  activeProjectsTitle: startsSection("Projects", line("Heading above the current projects")),
  activeProjects: z.array(projectSchema).meta({
    title: "Current projects",
    editor: { moveTo: { field: "previousProjects", label: "Move to previous projects" }, collapse: true },
  }),
  previousProjectsTitle: line("Heading above the previous projects"),
  previousProjects: z.array(projectSchema).meta({
    title: "Previous projects",
    editor: { moveTo: { field: "activeProjects", label: "Move to current projects" }, collapse: true },
  }),
  mission: startsSection("Our mission", missionSchema),
  /** The video block: its heading, the caption under the picture, the picture shown before play, and its own video (the site's defaultVideo otherwise). */
  video: z
    .object({
      title: line("Heading"),
      text: paragraph("Caption", "Under the video."),
      poster: picture("Picture before play"),
      source: ownVideo(),
    })
    .meta({ title: "Video block", editor: { section: "Video block" } }),
});
export type HomeContent = z.infer<typeof homeSchema>;

export const aboutSchema = z.object({
  title: startsSection("Top of the page", pageTitle()),
  description: pageDescription(),
  /** The header's video: the caption under it, the picture shown before play, and its own video (the site's defaultVideo otherwise). */
  video: z
    .object({
      caption: paragraph("Caption", "Under the video."),
      poster: picture("Picture before play"),
      source: ownVideo(),
    })
    .meta({ title: "Header video" }),
  ...pageColumns(),
  mission: startsSection("Our mission", missionSchema),
  team: z
    .array(teamMemberSchema)
    .min(1, "must have at least one member")
    .meta({ title: "Meet the team", editor: { section: "Meet the team" } }),
  trustees: z
    .array(trusteeSchema)
    .min(1, "must have at least one trustee")
    .meta({ title: "Trustees", editor: { section: "Trustees" } }),
});
export type AboutContent = z.infer<typeof aboutSchema>;

export const contactSchema = z.object({
  title: pageTitle(),
  description: pageDescription(),
  image: picture("Header picture"),
  ...pageColumns(),
});
export type ContactContent = z.infer<typeof contactSchema>;

export const volunteeringSchema = z.object({
  title: pageTitle(),
  description: pageDescription(),
  image: picture("Header picture"),
  ...pageColumns(),
  /** The heading above the sign-up form ("Join us in 2025"): the charity changes it as the years go by. */
  formTitle: line("Heading above the sign-up form", "Such as Join us in 2025."),
  formIntro: paragraph("Words above the sign-up form"),
});
export type VolunteeringContent = z.infer<typeof volunteeringSchema>;

export const fundraisingSchema = z.object({
  title: pageTitle(),
  description: pageDescription(),
  image: picture("Header picture"),
  ...pageColumns(),
});
export type FundraisingContent = z.infer<typeof fundraisingSchema>;

export const paymentSchema = z.object({
  title: pageTitle(),
  description: pageDescription(),
  donationText: paragraph("Words above the donation form"),
  donationSuccessTitle: line("Heading after a donation"),
  donationGratitudeText: paragraph("Thanks after a donation"),
  paymentSuccessImage: picture("Picture after a donation"),
  presetAmounts: z
    .array(
      z.number().int("must be a whole number of pounds").positive("must be more than £0").meta({ title: "Amount (£)" }),
    )
    .min(1, "must have at least one amount")
    .meta({ title: "Amounts offered", description: "The buttons above the donation form, in pounds." }),
});
export type PaymentContent = z.infer<typeof paymentSchema>;

/**
 * Each content file: its folder name under content/, its page key (call 2 of docs/specification.md,
 * section 7) and its schema.
 */
export const contentFiles = {
  site: { pageKey: "SiteSettings", schema: siteSchema },
  home: { pageKey: "HomePage", schema: homeSchema },
  about: { pageKey: "AboutPage", schema: aboutSchema },
  contact: { pageKey: "ContactPage", schema: contactSchema },
  volunteering: { pageKey: "VolunteeringPage", schema: volunteeringSchema },
  fundraising: { pageKey: "FundraisingPage", schema: fundraisingSchema },
  payment: { pageKey: "PaymentPage", schema: paymentSchema },
} as const;

export type ContentName = keyof typeof contentFiles;
export type ContentOf<N extends ContentName> = z.infer<(typeof contentFiles)[N]["schema"]>;
