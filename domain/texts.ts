/** The spec's user-facing texts, word for word (typos included: they are part of the product). */
export const texts = {
  somethingWentWrong: 'Something went wrong.',
  dashboardLoadFailed: 'Something went wrong. please try again later.',
  tryAgainLater: 'Something went wrong. Try again later.',
  initialFormFailed: 'Something went wrong',
  statusCountFailed: 'Something went wrong. Please Try Again Later.',
  wrongCredentials: 'Wrong email or password, Try again.',
  resetEmailSent: 'An email has been sent to the registered address. Please check your inbox.',
  resetEmailFailed: 'Something went wrong. Please try again later.',
  passwordChangeErrorPrefix: 'An Error occurred: ',
  missingInformation: 'Missing information',
  adminUnauthorized: 'This user is not authorized. You are navigated to login page.',
  downloadTooltip: 'The final file cannot be downloaded until the total payment is completed.',
  liveDetailsUnpaid: 'The data can be seen after the payment has been made in full.',
  noRelevantInformation:
    'There is no relevant information for this product yet, the information will be updated live as soon as it is available.',
  noToolRequests: "You don't have any requests for this tool.",
  nothingFound: "We couldn't find anything.",
  noNotifications: "You don't have any notifications yet.",
  publicNotificationCreated: 'Successfully created public notification',
  userNotificationCreated: (id: string) => `Successfully created notification for user ${id}`,
  userCreated: 'Successfully created new User',
  userLinked: 'Successfully linked User',
  messageSent: 'Messgae sent successfully',
  refundSent: 'Refund Request Sent.',
  requestSubmitted: 'Request submitted successfully.',
  initialFormFilled: 'Initial form filled successfully.',
  passwordUpdated: 'Updated password successfully.',
  notFullyPaid: 'This product request has not fully paid.',
  awaitingApproval: 'Awaiting initial approval',
  awaitingDefinition: 'Awaiting definition',
  contactIntro: 'Leave Your request below, and we will contact you.',
  passwordsMatch: 'Passwords Match',
  passwordsDoNotMatch: 'Passwords do not match!',
  pageNotFound: 'PAGE NOT FOUND',
  goToDashboard: 'GO TO DASHBOARD',
  waitingToSend: 'Waiting to send',
  sentWhenOnline: 'You are offline. Your request is saved on this device and will be sent when the connection is back.',
  /** Online, but the server has not answered within the short wait: the command is safe in the outbox. */
  /** Online, but no answer came in time (slow server, a retry after an error, a sign-in needed): true in every case. */
  savedOnDevice: 'Saved on this device — it will be sent automatically. The outbox shows where it stands.',
  needsConnection: 'This needs an internet connection. Please try again when you are back online.',
  newVersion: 'A new version is available',
  /** The client's second refund while one waits: the same words in the app and in the server's 409. */
  refundPending: 'A refund for this request is already waiting for a decision. We will notify you when it is decided.',
} as const;

/** External pages the spec links to (sign-up and footer links open outside the app). */
export const externalLinks = {
  signUp: 'https://www.example.com/sign-up',
  about: 'https://www.example.com/about',
  terms: 'https://www.example.com/terms-and-conditions',
  privacy: 'https://www.example.com/privacy-policy',
} as const;
