/** Header Help dialog (spec section 2: Shared page header and menu). */
export const help = {
  title: 'Help',
  description: 'Short videos to help you get the most from your programme.',
  videos: {
    gettingStarted: 'Getting Started',
    healthActivities: 'Health Activities: SOAR, Vital Scan and Plan of Care',
    wealthCenter: 'Wealth Center',
  },
  placeholderVideo: 'This video will be available soon.',
} as const;
