module.exports = require('./_rest.js')["doctor"];
