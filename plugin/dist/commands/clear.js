module.exports = require('./_rest.js')["clear"];
